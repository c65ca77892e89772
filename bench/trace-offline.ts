/**
 * `npm run bench -- trace-offline` (a diagnostic, not in the default set; docs/offline.md,
 * "Figures"): what the page's main thread does between the click on a downloaded track's play
 * button and its audio clock moving. The setup is the offline bench's (seeded premium listener,
 * a 10-track playlist downloaded, the device offline, the app reloaded from the precache); a few
 * clicks warm the page up, then CLICKS clicks run under a Chrome trace (tasks, media and service
 * worker events) and V8's sampling profiler. For each click it prints the steps (source set,
 * canplay, playing, clock moving) and every main-thread task in between with what it ran (event
 * dispatches, timers, React's work by source-mapped function, style, layout, paint, GC); then the
 * JavaScript time of all the windows by app function and package. It also samples the playing
 * element's clock each macrotask for 250 ms after each click (the clock as a script sees it).
 * TRACE_CLICKS sets the number of traced clicks (8); TRACE_OUT=file.json keeps the raw events.
 */
import { writeFileSync } from 'node:fs';
import type { CDPSession, Page } from '@playwright/test';
import { downloadPlaylist, withAppPage } from './offline';
import { placeOf, startTrace, type CallFrame, type TraceEvent } from './profile-pages';
import { clickToAudio, clockStarted, installMatcher, installPhaseTrace } from './player-measure';

const TRACKS = 10;
const WARM_CLICKS = 3;
const CLICKS = Number(process.env.TRACE_CLICKS ?? 8);

interface Profile {
  nodes: { id: number; callFrame: CallFrame; parent?: number; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const add = (map: Map<string, number>, key: string, v: number) =>
  map.set(key, (map.get(key) ?? 0) + v);
const f = (v: number | null | undefined) => (v === null || v === undefined ? '  -' : v.toFixed(1));

interface ClickRecord {
  /** performance.now() of the click event and of the steps, page clock, ms. */
  clickAt: number;
  samples: [number, number][];
  steps: Record<string, number>;
  seen: number;
  clock: number;
}

async function offlineAfterDownload(page: Page, base: string) {
  const { userId, tracks } = await downloadPlaylist(page, base, 'Bench Trace');
  await page.context().setOffline(true);
  await page.reload();
  await page.getByRole('button', { name: `Play ${tracks[0]?.title}` }).waitFor();
  return { userId, tracks };
}

export async function traceOffline(distDir: string): Promise<void> {
  const title = '\nTrace of the offline click to audio (diagnostic)';
  await withAppPage(distDir, title, async (page, base) => {
    const context = page.context();
    const { userId, tracks } = await offlineAfterDownload(page, base);
    await installMatcher(page);
    await installPhaseTrace(page, '/offline-audio/');
    // A user-timing mark at each click, to line the page's clock up with the trace's.
    await page.evaluate(() => {
      const w = window as Window & { __marks?: number[] };
      w.__marks = [];
      document.addEventListener(
        'click',
        () => {
          const now = performance.now();
          performance.mark(`bench-click-${w.__marks?.length ?? 0}`, { startTime: now });
          w.__marks?.push(now);
          const samples: [number, number][] = [];
          (w as unknown as { __samples: [number, number][] }).__samples = samples;
          const poll = () => {
            // installMatcher's view of the player's sounds (the Howls, read like elements).
            const nodes =
              (w as unknown as { __audioNodes?: () => HTMLAudioElement[] }).__audioNodes?.() ?? [];
            const playing = nodes.find((n) => !n.paused);
            samples.push([performance.now() - now, playing ? playing.currentTime * 1000 : -1]);
            if (performance.now() - now < 250) setTimeout(poll, 0);
          };
          setTimeout(poll, 0);
        },
        { capture: true },
      );
    });
    const cdp: CDPSession = await context.newCDPSession(page);
    const records: ClickRecord[] = [];
    const events: TraceEvent[] = [];
    let endTrace: (() => Promise<void>) | null = null;
    for (let i = 0; i < WARM_CLICKS + CLICKS; i++) {
      if (i === WARM_CLICKS) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        endTrace = await startTrace(
          cdp,
          ['blink.user_timing', 'media', 'ServiceWorker', 'loading'],
          events,
        );
        await cdp.send('Profiler.start');
      }
      const track = tracks[(i * 2) % TRACKS] ?? tracks[0];
      if (!track) break;
      const src = `/offline-audio/${userId}/${track.id}`;
      const seen = await clickToAudio(
        page,
        page.getByRole('button', { name: `Play ${track.title}`, exact: true }),
        [src],
      );
      const clock = await clockStarted(page);
      await page.waitForTimeout(100);
      const rec = await page.evaluate((path) => {
        const w = window as Window & {
          __trace?: Map<string, Record<string, number>>;
          __marks?: number[];
        };
        return {
          samples: (w as unknown as { __samples: [number, number][] }).__samples,
          clickAt: w.__marks?.at(-1) ?? 0,
          steps: w.__trace?.get(new URL(path, location.href).href) ?? {},
        };
      }, src);
      if (i >= WARM_CLICKS) records.push({ ...rec, seen, clock });
      await page.waitForTimeout(400);
    }
    const profile = ((await cdp.send('Profiler.stop')) as { profile: Profile }).profile;
    await endTrace?.();
    if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, JSON.stringify(events));
    analyse(distDir, records, events, profile);
  });
}

/** Events worth naming inside a main-thread task, with the detail that tells them apart. */
function label(distDir: string, e: TraceEvent): string | null {
  const data = (e.args?.data ?? {}) as Record<string, unknown>;
  switch (e.name) {
    case 'EventDispatch':
      return `event ${String(data.type)}`;
    case 'FunctionCall': {
      const place = placeOf(distDir, {
        functionName: String(data.functionName ?? ''),
        url: String(data.url ?? ''),
        lineNumber: Number(data.lineNumber ?? 1) - 1,
        columnNumber: Number(data.columnNumber ?? 1) - 1,
      });
      return `call ${place.name}`;
    }
    case 'TimerFire':
    case 'FireAnimationFrame':
    case 'FireIdleCallback':
    case 'RunMicrotasks':
    case 'UpdateLayoutTree':
    case 'Layout':
    case 'Paint':
    case 'PrePaint':
    case 'Commit':
    case 'Layerize':
    case 'MajorGC':
    case 'MinorGC':
    case 'V8.GC_SCAVENGER':
    case 'ParseHTML':
    case 'EvaluateScript':
    case 'v8.compile':
    case 'HitTest':
    case 'ResourceSendRequest':
    case 'ResourceReceiveResponse':
    case 'ResourceFinish':
    case 'XHRReadyStateChange':
    case 'Decode Image':
    case 'ImageDecodeTask':
      return (
        e.name +
        (data.url
          ? ` ${String(data.url)
              .replace(/^https?:\/\/[^/]+/, '')
              .slice(0, 60)}`
          : '')
      );
    default:
      return null;
  }
}

function analyse(distDir: string, records: ClickRecord[], events: TraceEvent[], profile: Profile) {
  const threadNames = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name')
      threadNames.set(`${e.pid}:${e.tid}`, String(e.args?.name));
  const marks = events.filter((e) => e.name.startsWith('bench-click-'));
  if (!marks.length) {
    console.log('  no click marks in the trace');
    return;
  }
  const pagePid = marks[0]?.pid;
  const mainTid = [...threadNames.entries()].find(
    ([key, name]) => key.startsWith(`${pagePid}:`) && name === 'CrRendererMain',
  )?.[0];
  const main = events.filter((e) => `${e.pid}:${e.tid}` === mainTid);
  // Page clock (ms) to trace clock (µs): the marks' own times.
  const markTs = marks.map((m) => m.ts).sort((a, b) => a - b);
  const perClick = new Map<string, number>();
  const perClickApp = new Map<string, number>();
  const windows: [number, number][] = [];
  const summary: Record<string, number[]> = {};
  records.forEach((rec, n) => {
    const clickTs = markTs[n];
    if (clickTs === undefined) return;
    const toTs = (pageMs: number) => clickTs + (pageMs - rec.clickAt) * 1000;
    const rel = (ts: number) => (ts - clickTs) / 1000;
    const end = clickTs + (rec.seen + 5) * 1000;
    windows.push([clickTs - 30_000, end]);
    const steps = Object.fromEntries(
      Object.entries(rec.steps).map(([k, v]) => [k, v - rec.clickAt] as const),
    );
    console.log(
      `\n  click ${n + 1}: source set ${f(steps.src)}, play() ${f(steps.play)}, canplay ${f(steps.canplay)}, playing ${f(steps.playing)}, clock started ${f(rec.clock)}, seen ${f(rec.seen)} ms`,
    );
    console.log(
      `    clock samples (ms after click: clock ms): ${rec.samples
        .filter((x) => x[1] >= 0)
        .map(([a, b]) => `${a.toFixed(0)}:${b.toFixed(1)}`)
        .join(' ')}`,
    );
    for (const [k, v] of Object.entries({ ...steps, clock: rec.clock, seen: rec.seen }))
      (summary[k] ??= []).push(v);
    // Top-level tasks of the main thread from 30 ms before the click to the clock seen.
    const tasks = main
      .filter(
        (e) =>
          e.ph === 'X' &&
          (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') &&
          e.ts + (e.dur ?? 0) > clickTs - 30_000 &&
          e.ts < end,
      )
      .sort((a, b) => a.ts - b.ts);
    let busy = 0;
    for (const task of tasks) {
      const dur = (task.dur ?? 0) / 1000;
      const inside = main.filter(
        (e) => e !== task && e.ph === 'X' && e.ts >= task.ts && e.ts < task.ts + (task.dur ?? 0),
      );
      if (
        task.name !== 'ThreadControllerImpl::RunTask' &&
        main.some(
          (o) =>
            o !== task &&
            o.name === 'ThreadControllerImpl::RunTask' &&
            o.ts <= task.ts &&
            o.ts + (o.dur ?? 0) >= task.ts + (task.dur ?? 0),
        )
      )
        continue;
      if (task.ts >= clickTs) busy += dur;
      if (dur < 0.3) continue;
      const parts = new Map<string, number>();
      for (const e of inside) {
        const l = label(distDir, e);
        if (l) add(parts, l, (e.dur ?? 0) / 1000);
      }
      if (!parts.size)
        for (const e of inside)
          if (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask')
            add(parts, e.name, (e.dur ?? 0) / 1000);
      const top = [...parts.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join('; ');
      console.log(`    ${f(rel(task.ts)).padStart(6)} +${dur.toFixed(1).padStart(5)} ms  ${top}`);
    }
    console.log(`    main thread busy from the click to the clock seen: ${busy.toFixed(1)} ms`);
    // Media and service worker events on other threads in the window.
    const others = events
      .filter(
        (e) =>
          (e.cat.includes('media') || e.cat.includes('ServiceWorker')) &&
          e.ts >= clickTs - 2000 &&
          e.ts < end &&
          (e.ph === 'X' ||
            e.ph === 'I' ||
            e.ph === 'i' ||
            e.ph === 'b' ||
            e.ph === 'B' ||
            e.ph === 'n'),
      )
      .sort((a, b) => a.ts - b.ts);
    const seenNames = new Map<string, number>();
    const line: string[] = [];
    for (const e of others) {
      const thread = threadNames.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`;
      const key = `${e.name}@${thread}`;
      const count = (seenNames.get(key) ?? 0) + 1;
      seenNames.set(key, count);
      if (count > 3) continue;
      line.push(
        `${f(rel(e.ts))} ${e.name} [${thread}]${e.dur ? ` ${(e.dur / 1000).toFixed(1)}` : ''}`,
      );
    }
    if (line.length) console.log(`    media/SW (first of each): ${line.join('\n      ')}`);
    void toTs;
  });
  const med = (values: number[]) => {
    const s = [...values].sort((a, b) => a - b);
    return s[Math.floor((s.length - 1) / 2)] ?? NaN;
  };
  console.log(
    `\n  medians: ${Object.entries(summary)
      .map(([k, v]) => `${k} ${med(v).toFixed(1)}`)
      .join(', ')}`,
  );

  // JavaScript samples in the windows (from the click to the clock seen), by function.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  let t = profile.startTime;
  const inWindow = (ts: number) => windows.some(([a, b]) => ts >= a + 30_000 && ts < b);
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (!inWindow(t)) return;
    const dt = (profile.timeDeltas[i + 1] ?? 100) / 1000;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') return;
    const top = placeOf(distDir, node.callFrame);
    add(perClick, top.source, dt);
    // The nearest app function on the stack.
    let cur: number | undefined = id;
    while (cur !== undefined) {
      const frame = byId.get(cur)?.callFrame;
      if (!frame) break;
      const p = placeOf(distDir, frame);
      if (p.app) {
        add(perClickApp, p.name, dt);
        break;
      }
      cur = parentOf.get(cur);
    }
  });
  const print = (title: string, map: Map<string, number>) => {
    console.log(`\n  ${title} (all ${records.length} windows, ms):`);
    for (const [k, v] of [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25))
      console.log(`    ${v.toFixed(1).padStart(7)}  ${k}`);
  };
  print('JS and native samples by source, click to clock seen', perClick);
  print('by the nearest app function on the stack', perClickApp);
}
