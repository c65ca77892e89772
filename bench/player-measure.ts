/**
 * In-page probes of the player bench: what runs inside the signed-in app's page (through
 * `page.evaluate`) and over CDP. Audio is read from the player's Howls through the engine's debug
 * hook (`window.__soundloftPlayer`, src/player/engine/howler-backend.ts) and Howler's public API;
 * in older builds from the element engine's `#player-audio` elements, or from Howler's own
 * objects before that, so old and new builds can be measured by the same bench.
 */
import type { CDPSession, Locator, Page } from '@playwright/test';

/**
 * Installs in the page the player's audio elements (`__audioNodes`) and whether an element's
 * source is the audio a probe waits for (`__srcMatches`): any of `parts` in its URL's decoded
 * path (the player plays signed URLs, known by their object, not their token). Once per page
 * load, before the probes (they poll it).
 */
export async function installMatcher(page: Page): Promise<void> {
  // A sound of the hook reads like an element (src, paused, currentTime, readyState), the same
  // object for the same Howl, so the probes below work on every build.
  await page.evaluate(`globalThis.__audioNodes ??= () => {
    const hook = globalThis.__soundloftPlayer;
    if (hook) {
      const seen = (globalThis.__soundNodes ??= new WeakMap());
      return hook.sounds().map(({ src, howl }) => {
        if (!seen.has(howl))
          seen.set(howl, {
            src,
            playbackRate: 1,
            get paused() { return !howl.playing(); },
            get currentTime() { const t = howl.seek(); return typeof t === 'number' ? t : 0; },
            get readyState() { return howl.state() === 'loaded' ? 4 : 0; },
          });
        return seen.get(howl);
      });
    }
    const nodes = [...document.querySelectorAll('#player-audio audio')];
    for (const h of globalThis.Howler?._howls ?? [])
      for (const s of h._sounds) if (s._node) nodes.push(s._node);
    return nodes;
  }`);
  await page.evaluate(`globalThis.__srcMatches ??= (node, parts) => {
    if (!node.src) return false;
    const path = decodeURIComponent(node.src.split('?')[0]);
    return parts.some((part) => path.includes(part));
  }`);
}

type BenchWindow = Window & {
  Howler?: { _howls: unknown[]; _html5AudioPool: unknown[] };
  __clickAt?: number;
  __pressAt?: number;
  __probe?: Promise<number>;
  __clockStarted?: number;
  __audioNodes?: () => HTMLAudioElement[];
  __srcMatches?: (node: HTMLAudioElement, parts: readonly string[]) => boolean;
};

/**
 * Arms a probe for `src`: from the next click (its event timestamp, taken when the browser
 * created the event) to the first moment the audio element of `src` plays with its clock past
 * where it started. Polled every macrotask (about 4 ms), so figures carry that resolution.
 */
export async function armClickToAudio(page: Page, src: readonly string[]): Promise<void> {
  // tsx compiles with esbuild's keepNames: named functions below call a `__name` helper that
  // exists in Node, not in the page.
  await page.evaluate('globalThis.__name ??= (f) => f');
  await page.evaluate((target) => {
    const w = window as BenchWindow;
    w.__clickAt = undefined;
    w.__pressAt = undefined;
    // Howler moved its HTML5 elements from track to track (a pool): an element is compared with
    // where it was only while it still holds the same file, otherwise from 0.
    const started = new Map<HTMLAudioElement, { src: string; time: number }>();
    for (const node of w.__audioNodes?.() ?? [])
      started.set(node, { src: node.src, time: node.currentTime });
    document.addEventListener('click', (e) => (w.__clickAt = e.timeStamp), {
      capture: true,
      once: true,
    });
    // The press before it: the player starts loading a row's track there (docs/player.md).
    document.addEventListener('pointerdown', (e) => (w.__pressAt = e.timeStamp), {
      capture: true,
      once: true,
    });
    w.__probe = new Promise<number>((resolve, reject) => {
      const deadline = performance.now() + 30_000;
      const poll = () => {
        for (const node of w.__audioNodes?.() ?? []) {
          if (!w.__srcMatches?.(node, target)) continue;
          if (node.paused || w.__clickAt === undefined) continue;
          const before = started.get(node);
          const from = before && before.src === node.src ? before.time : 0;
          if (node.currentTime > from + 0.001) {
            const seen = performance.now() - w.__clickAt;
            // When the clock started, by the element's own clock: the poll runs on the main
            // thread, so it may see the clock late (a render, a long task).
            w.__clockStarted = seen - ((node.currentTime - from) * 1000) / (node.playbackRate || 1);
            resolve(seen);
            return;
          }
        }
        if (performance.now() > deadline) reject(new Error(`no audio for ${target.join(' or ')}`));
        else setTimeout(poll, 0);
      };
      poll();
    });
  }, src);
}

/**
 * When the clock of the last probe's audio started after the click, in ms, back-computed from
 * how far the element's clock had gone when the probe saw it (the probe's own delay left out).
 */
export async function clockStarted(page: Page): Promise<number> {
  return page.evaluate(() => (window as BenchWindow).__clockStarted ?? Number.NaN);
}

/** How long before the last probe's click its press (pointerdown) came, in ms. */
export async function pressLead(page: Page): Promise<number> {
  return page.evaluate(() => {
    const w = window as BenchWindow;
    return w.__clickAt !== undefined && w.__pressAt !== undefined
      ? w.__clickAt - w.__pressAt
      : Number.NaN;
  });
}

/** How long a person holds a click: 50-150 ms; the benches' "a person's click" holds it 100 ms. */
export const PERSON_PRESS_MS = 100;

/**
 * The press each click of a series holds: BENCH_PRESS_MS for every click when it is set, else
 * instant (Playwright's click presses and releases at once) and a person's press alternately,
 * so both figures come from the same run.
 */
export function seriesPressMs(i: number): number {
  const fixed = process.env.BENCH_PRESS_MS;
  if (fixed !== undefined && fixed !== '') return Number(fixed);
  return i % 2 === 0 ? 0 : PERSON_PRESS_MS;
}

/**
 * Clicks `button` and returns the click-to-audio time of the armed probe, in ms. `pressMs`: a
 * press held that long before the release that clicks (BENCH_PRESS_MS by default, else none).
 */
export async function clickToAudio(
  page: Page,
  button: Locator,
  src: readonly string[],
  pressMs = Number(process.env.BENCH_PRESS_MS ?? 0),
): Promise<number> {
  await armClickToAudio(page, src);
  if (pressMs > 0) {
    await button.hover();
    await page.mouse.down();
    await page.waitForTimeout(pressMs);
    await page.mouse.up();
  } else await button.click();
  return page.evaluate(() => (window as BenchWindow).__probe as Promise<number>);
}

/** The load state of `src` ('loaded' once the browser can play it through), or null. */
export async function loadState(page: Page, src: readonly string[]): Promise<string | null> {
  return page.evaluate((target) => {
    const w = window as BenchWindow;
    const node = w.__audioNodes?.().find((n) => w.__srcMatches?.(n, target));
    if (!node) return null;
    return node.readyState >= HTMLMediaElement.HAVE_ENOUGH_DATA ? 'loaded' : 'loading';
  }, src);
}

export interface HeapSample {
  /** JSHeapUsedSize after a forced garbage collection, bytes. */
  heapUsed: number;
  /** Live HTMLAudioElement objects in the heap (attached or not). */
  audioElements: number;
  /** Live Howl objects in the heap (the player's, and replaced ones not yet unloaded). */
  howlObjects: number;
  /** The player's sounds, and the idle elements of Howler's pool (read from Howler's internals: a figure only). */
  playerElements: number;
  howlerPool: number;
  /** DOM nodes and JS event listeners alive (Memory.getDOMCounters). */
  domNodes: number;
  listeners: number;
}

async function countInstances(cdp: CDPSession, prototypeExpression: string): Promise<number> {
  const proto = await cdp.send('Runtime.evaluate', { expression: prototypeExpression });
  if (!proto.result.objectId) return 0;
  const found = await cdp.send('Runtime.queryObjects', {
    prototypeObjectId: proto.result.objectId,
  });
  const objectId = found.objects.objectId;
  if (!objectId) return 0;
  const length = await cdp.send('Runtime.callFunctionOn', {
    objectId,
    functionDeclaration: 'function () { return this.length; }',
    returnByValue: true,
  });
  await cdp.send('Runtime.releaseObject', { objectId });
  await cdp.send('Runtime.releaseObject', { objectId: proto.result.objectId });
  return Number(length.result.value ?? 0);
}

/** Forces garbage collection (twice: finalizers free more), then samples the heap. */
export async function sampleHeap(page: Page, cdp: CDPSession): Promise<HeapSample> {
  await cdp.send('HeapProfiler.collectGarbage');
  await page.waitForTimeout(200);
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  const dom = await cdp.send('Memory.getDOMCounters');
  const howler = await page.evaluate(() => {
    const w = window as BenchWindow;
    return {
      elements: w.__audioNodes?.().length ?? 0,
      pool: w.Howler?._html5AudioPool.length ?? 0,
    };
  });
  return {
    heapUsed: metric('JSHeapUsedSize'),
    audioElements: await countInstances(cdp, 'HTMLAudioElement.prototype'),
    howlObjects: await countInstances(cdp, 'window.Howl ? window.Howl.prototype : undefined'),
    playerElements: howler.elements,
    howlerPool: howler.pool,
    domNodes: dom.nodes,
    listeners: dom.jsEventListeners,
  };
}

/**
 * The floor under the same conditions: a bare `new Audio(src).play()` in the same page, from the
 * call to the clock advancing, without the app (no click, no React, no Howler). `preload` waits
 * for canplaythrough first, like the player's preloaded next track. A query string keeps the
 * cold case out of the HTTP cache.
 */
export async function rawPlayToAudio(page: Page, src: string, preload: boolean): Promise<number> {
  await page.evaluate('globalThis.__name ??= (f) => f');
  return page.evaluate(
    async ([url, wait]) => {
      const audio = new Audio();
      audio.preload = 'auto';
      // Audible, as the player's elements are: Chromium moves a volume-0 element's clock
      // without waiting for the audio output (1-8 ms after play()), an audible one's at the
      // output's next callback, every 23.2 ms here (2-27 ms): docs/player.md, session 12.
      audio.volume = 1;
      const fresh = new URL(url, location.href);
      fresh.searchParams.set('raw', String(Math.random()));
      audio.src = fresh.href;
      if (wait) {
        await new Promise((resolve, reject) => {
          audio.addEventListener('canplaythrough', resolve, { once: true });
          audio.addEventListener('error', reject, { once: true });
        });
      }
      const t0 = performance.now();
      await new Promise<void>((resolve, reject) => {
        const deadline = t0 + 30_000;
        const poll = () => {
          if (!audio.paused && audio.currentTime > 0.001) resolve();
          else if (performance.now() > deadline) reject(new Error(`no audio for ${url}`));
          else setTimeout(poll, 0);
        };
        void audio.play().then(poll, reject);
      });
      const took = performance.now() - t0;
      audio.pause();
      audio.removeAttribute('src');
      audio.load();
      return took;
    },
    [src, preload] as const,
  );
}

/** When each step of one play happened, in ms after the click (null: not seen). */
export interface PlayPhases {
  /** The app gave the element its source (React, the store, sourceOf, Howler's Howl). */
  src: number | null;
  /** The element had enough to start (HAVE_FUTURE_DATA: where a bare play() would start). */
  canplay: number | null;
  /** The element expects to play through: what Howler waits for before calling play(). */
  canplaythrough: number | null;
  /** play() called on the element. */
  play: number | null;
  /** The element's 'playing' event. */
  playing: number | null;
  /** Main-thread time in long tasks (over 50 ms each) from the click to 'playing'. */
  busy: number;
}

type TraceWindow = Window & {
  __trace?: Map<string, Record<string, number>>;
  __longTasks?: { start: number; duration: number }[];
  __clickAt?: number;
  __pressAt?: number;
};

/**
 * Records, for every audio element whose source matches `part`, when its source was set, when
 * it could play and play through, when play() was called and when it played. Once per page load.
 */
export async function installPhaseTrace(page: Page, part: string): Promise<void> {
  await page.evaluate('globalThis.__name ??= (f) => f');
  await page.evaluate((match) => {
    const w = window as TraceWindow;
    if (w.__trace) return;
    const trace = new Map<string, Record<string, number>>();
    w.__trace = trace;
    const longTasks: { start: number; duration: number }[] = [];
    w.__longTasks = longTasks;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: false });
    const proto = HTMLMediaElement.prototype;
    const srcProp = Object.getOwnPropertyDescriptor(proto, 'src');
    const mark = (node: HTMLMediaElement, step: string) => {
      const key = decodeURIComponent(node.src.split('?')[0] ?? '');
      if (!key.includes(match)) return;
      const steps = trace.get(key) ?? {};
      steps[step] ??= performance.now();
      trace.set(key, steps);
    };
    Object.defineProperty(proto, 'src', {
      ...srcProp,
      set(this: HTMLMediaElement, value: string) {
        srcProp?.set?.call(this, value);
        const key = decodeURIComponent(value.split('?')[0] ?? '');
        if (key.includes(match))
          trace.set(new URL(key, location.href).href, { src: performance.now() });
        for (const step of ['canplay', 'canplaythrough', 'playing'])
          this.addEventListener(step, () => mark(this, step), { once: true });
      },
    });
    const play = proto.play;
    proto.play = function (this: HTMLMediaElement) {
      mark(this, 'play');
      return play.call(this);
    };
  }, part);
}

/** The steps of the last play of `src` (an absolute path), relative to the last click. */
export async function playPhases(page: Page, src: string): Promise<PlayPhases> {
  return page.evaluate((path) => {
    const w = window as TraceWindow;
    const steps = w.__trace?.get(new URL(path, location.href).href) ?? {};
    const at = (step: string) =>
      steps[step] !== undefined && w.__clickAt !== undefined ? steps[step] - w.__clickAt : null;
    const click = w.__clickAt ?? 0;
    const end = steps.playing ?? performance.now();
    const busy = (w.__longTasks ?? [])
      .filter((t) => t.start + t.duration > click && t.start < end)
      .reduce((sum, t) => sum + Math.min(end, t.start + t.duration) - Math.max(click, t.start), 0);
    return {
      src: at('src'),
      canplay: at('canplay'),
      canplaythrough: at('canplaythrough'),
      play: at('play'),
      playing: at('playing'),
      busy,
    };
  }, src);
}
