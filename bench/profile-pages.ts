/**
 * Where the main thread's time goes on the signed-in pages, for `npm run bench -- profile`.
 *
 * A returning signed-in visit (one browser profile: the session and the IndexedDB mirror kept,
 * as Lighthouse measures it) to each page, with the CPU slowed 4× like Lighthouse's mobile
 * preset, under V8's sampling profiler. The samples are cut into tasks at the profiler's idle
 * samples; every busy stretch over 50 ms counts as a long task, as in total blocking time (its
 * excess over 50 ms). Each sample's top frame is mapped through the build's source maps to its
 * original file, and the long tasks' time is printed by package (node_modules) or app file, and
 * by the app function nearest the top of the stack. CPU time, so less sensitive to the machine's
 * load than a score; still say the load with it.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/chromium';
import { startAppServer } from './app-server';

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  parent?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface PageProfile {
  path: string;
  /** Long tasks (busy stretches over 50 ms, CPU slowed 4×), in ms. */
  longTasks: number[];
  /** Sum of each long task's time over 50 ms. */
  blockingMs: number;
  /** Long tasks' time by package or app file, ms, largest first. */
  bySource: [string, number][];
  /** Long tasks' time by the nearest app (src/) function on the stack, ms, largest first. */
  byAppFunction: [string, number][];
  /** Long tasks' self time by function (the sample's top frame), ms, largest first. */
  byFunction: [string, number][];
  /** Rendering, parsing and GC inside the long tasks, by trace event, ms. */
  byRender: [string, number][];
  taskLines: string[];
}

const consumers = new Map<string, SourceMapConsumer | null>();
function consumerFor(distDir: string, url: string): SourceMapConsumer | null {
  if (consumers.has(url)) return consumers.get(url) ?? null;
  let consumer: SourceMapConsumer | null = null;
  try {
    const file = join(distDir, new URL(url).pathname + '.map');
    if (existsSync(file)) {
      consumer = new SourceMapConsumer(JSON.parse(readFileSync(file, 'utf8')) as RawSourceMap);
    }
  } catch {
    consumer = null;
  }
  consumers.set(url, consumer);
  return consumer;
}

export interface Place {
  /** Package name or src/ path. */
  source: string;
  app: boolean;
  name: string;
}
const places = new Map<string, Place>();
export function placeOf(distDir: string, frame: CallFrame): Place {
  const key = `${frame.url}:${frame.lineNumber}:${frame.columnNumber}:${frame.functionName}`;
  const known = places.get(key);
  if (known) return known;
  let place: Place;
  if (!frame.url) {
    place = { source: frame.functionName || '(native)', app: false, name: frame.functionName };
  } else {
    const consumer = consumerFor(distDir, frame.url);
    const pos = consumer?.originalPositionFor({
      line: frame.lineNumber + 1,
      column: frame.columnNumber,
    });
    const original = pos?.source ?? new URL(frame.url).pathname;
    const nm = original.lastIndexOf('node_modules/');
    let source: string;
    let app = false;
    if (nm >= 0) {
      const rest = original.slice(nm + 'node_modules/'.length).split('/');
      source = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? original);
    } else {
      const src = original.indexOf('src/');
      source = src >= 0 ? original.slice(src) : original;
      app = src >= 0;
    }
    const name = pos?.name || frame.functionName || '(anonymous)';
    place = { source, app, name: `${name} (${source}:${pos?.line ?? '?'})` };
  }
  places.set(key, place);
  return place;
}

function add(map: Map<string, number>, key: string, ms: number) {
  map.set(key, (map.get(key) ?? 0) + ms);
}

/**
 * Starts a Chrome trace of the timeline (tasks, script, style, layout, paint), V8 and `extra`
 * categories into `events`; the returned function ends it once every event has arrived.
 */
export async function startTrace(
  cdp: CDPSession,
  extra: string[],
  events: TraceEvent[],
): Promise<() => Promise<void>> {
  cdp.on('Tracing.dataCollected', ({ value }) =>
    events.push(...(value as unknown as TraceEvent[])),
  );
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: [
        'toplevel',
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8',
        ...extra,
        '__metadata',
      ],
    },
  });
  return async () => {
    await cdp.send('Tracing.end');
    await complete;
  };
}

export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> } & Record<string, unknown>;
}

/** Rendering work inside the long tasks, by trace event (not JavaScript: the profiler's "(program)"). */
const RENDER_EVENTS = new Set([
  'UpdateLayoutTree',
  'Layout',
  'ParseHTML',
  'ParseAuthorStyleSheet',
  'PrePaint',
  'Paint',
  'Layerize',
  'HitTest',
  'v8.compile',
  'v8.compileModule',
  'v8.parseOnBackground',
  'MajorGC',
  'MinorGC',
  'V8.GC_SCAVENGER',
  'V8.GC_MARK_COMPACTOR',
  'Decode Image',
]);

function analyse(
  distDir: string,
  path: string,
  profile: Profile,
  trace: TraceEvent[],
): PageProfile {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) {
    for (const c of n.children ?? []) {
      const child = byId.get(c);
      if (child) child.parent = n.id;
    }
  }
  // The page's main thread: the renderer main thread with the most task time.
  const mains = new Set(
    trace
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const taskTime = new Map<string, number>();
  const runTasks = trace.filter(
    (e) => e.name === 'RunTask' && e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`),
  );
  for (const e of runTasks) add(taskTime, `${e.pid}:${e.tid}`, e.dur ?? 0);
  const main = [...taskTime.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const long = runTasks
    .filter((e) => `${e.pid}:${e.tid}` === main && (e.dur ?? 0) * SCALE > 50_000)
    .sort((a, b) => a.ts - b.ts);
  const inLong = (ts: number) => long.some((t) => ts >= t.ts && ts <= t.ts + (t.dur ?? 0));
  const byRender = new Map<string, number>();
  for (const e of trace) {
    if (e.ph !== 'X' || `${e.pid}:${e.tid}` !== main || !RENDER_EVENTS.has(e.name)) continue;
    if (inLong(e.ts)) add(byRender, e.name, ((e.dur ?? 0) * SCALE) / 1000);
  }
  const bySource = new Map<string, number>();
  const byApp = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const perTask = long.map(() => new Map<string, number>());
  const addTo = (i: number, key: string, ms: number) => {
    const map = perTask[i];
    if (map) add(map, key, ms);
  };
  const taskOf = (ts: number) => long.findIndex((e) => ts >= e.ts && ts <= e.ts + (e.dur ?? 0));
  for (const e of trace) {
    if (e.ph !== 'X' || `${e.pid}:${e.tid}` !== main || !RENDER_EVENTS.has(e.name)) continue;
    const i = taskOf(e.ts);
    if (i >= 0) addTo(i, `[${e.name}]`, ((e.dur ?? 0) * SCALE) / 1000);
  }
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    const ms = ((profile.timeDeltas[i + 1] ?? 0) * SCALE) / 1000;
    const node = byId.get(profile.samples[i] ?? -1);
    if (!node) continue;
    if (node.callFrame.functionName === '(idle)' || !inLong(t)) continue;
    const top = placeOf(distDir, node.callFrame);
    add(bySource, top.source, ms);
    add(byFunction, top.name, ms);
    let up: ProfileNode | undefined = node;
    let app: Place | null = null;
    while (up) {
      const place = placeOf(distDir, up.callFrame);
      if (place.app) {
        app = place;
        break;
      }
      up = up.parent === undefined ? undefined : byId.get(up.parent);
    }
    add(byApp, app?.name ?? `(no app frame: ${top.source})`, ms);
    const k = taskOf(t);
    if (k >= 0) {
      addTo(k, top.source, ms);
      if (app) addTo(k, `app: ${app.name}`, ms);
    }
  }
  const taskLines = long.map((e, i) => {
    const parts = [...(perTask[i] ?? new Map<string, number>()).entries()]
      .filter(([k]) => k !== '(program)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, 7)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ');
    return `@${((e.ts - (long[0]?.ts ?? e.ts)) / 1000).toFixed(0)} ${(((e.dur ?? 0) * SCALE) / 1000).toFixed(0)} ms: ${parts}`;
  });
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  const longTasks = long.map((e) => ((e.dur ?? 0) * SCALE) / 1000);
  return {
    path,
    longTasks,
    blockingMs: longTasks.reduce((sum, ms) => sum + Math.max(0, ms - 50), 0),
    bySource: sorted(bySource),
    byAppFunction: sorted(byApp),
    byFunction: sorted(byFunction),
    byRender: sorted(byRender),
    taskLines,
  };
}

async function signIn(page: Page, base: string, email: string) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').and(page.locator('input')).fill('soundloft-demo');
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL(/\/home/);
  await page.getByRole('status').filter({ hasText: 'Synced' }).first().waitFor({ timeout: 60_000 });
}

/**
 * Lighthouse's mobile preset does not slow the CPU while it loads the page: it multiplies the
 * tasks it observed by 4 (its simulation). So, by default, neither does this: a task counts as
 * long from 12.5 ms (50 ms at 4×) and the figures printed are ×4. THROTTLE=4 slows the CPU
 * instead (Chrome pauses the thread, and the profiler charges each pause to whatever was running).
 */
const THROTTLE = Number(process.env.THROTTLE ?? 1);
const SCALE = 4 / THROTTLE;

/** How long each visit is profiled after its heading shows (what the first seconds run). */
const WATCH_MS = 5000;

export async function profilePages(
  distDir: string,
  paths: string[],
  { runs = 1, email = 'listener@soundloft.local' } = {},
): Promise<PageProfile[]> {
  const server = await startAppServer(distDir, { seed: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    const login = await context.newPage();
    // The sync status shows in the desktop sidebar.
    await login.setViewportSize({ width: 1280, height: 800 });
    await signIn(login, server.base, email);
    const { anonKey } = (await (await fetch(`${server.base}/_dev/config`)).json()) as {
      anonKey: string;
    };
    const rows = (await (
      await fetch(`${server.base}/rest/v1/tracks?select=id,artist&order=created_at.desc&limit=1`, {
        headers: { apikey: anonKey },
      })
    ).json()) as { id: string; artist: string }[];
    await login.close();
    const out: PageProfile[] = [];
    for (const template of paths) {
      const path = template
        .replace('{track}', rows[0]?.id ?? 'none')
        .replace('{artist}', encodeURIComponent(rows[0]?.artist ?? 'none'));
      for (let run = 0; run < runs; run++) {
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        if (THROTTLE > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
        const trace: TraceEvent[] = [];
        const endTrace = await startTrace(cdp, ['blink'], trace);
        if (process.env.LOG_REQ) {
          page.on('response', (r) => {
            if (!r.url().includes('/v1/')) return;
            void r
              .body()
              .then((b) => console.log(`    ${r.status()} ${b.length} B ${r.url().slice(0, 160)}`))
              .catch(() => undefined);
          });
        }
        await page.goto(server.base + path);
        // A cheap check: Playwright's role queries run in the page and would show in the profile.
        await page.waitForFunction(() => document.querySelector('h1'), undefined, {
          polling: 250,
          timeout: 60_000,
        });
        await page.waitForTimeout(WATCH_MS);
        const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
        await endTrace();
        out.push(analyse(distDir, path, profile, trace));
        await page.close();
      }
    }
    return out;
  } finally {
    await browser.close();
    await server.close();
  }
}

export function printProfiles(results: PageProfile[], top = 12) {
  console.log(
    '\nMain thread, signed in, tasks scaled to 4× CPU as Lighthouse simulates (long: over 50 ms)',
  );
  for (const r of results) {
    console.log(
      `  ${r.path}: ${r.longTasks.length} long tasks, ${r.longTasks
        .reduce((a, b) => a + b, 0)
        .toFixed(0)} ms (${r.longTasks
        .map((ms) => ms.toFixed(0))
        .join(' + ')}), blocking ${r.blockingMs.toFixed(0)} ms`,
    );
    console.log(
      `    rendering etc.: ${r.byRender.map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`,
    );
    console.log(
      `    by source: ${r.bySource
        .slice(0, top)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ')}`,
    );
    if (process.env.TASKS) for (const line of r.taskLines) console.log(`      ${line}`);
    console.log('    by app function:');
    for (const [k, v] of r.byAppFunction.slice(0, top)) console.log(`      ${v.toFixed(0)} ${k}`);
    console.log('    by function (self):');
    for (const [k, v] of r.byFunction.slice(0, top * 2)) console.log(`      ${v.toFixed(0)} ${k}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [distDir, ...paths] = process.argv.slice(2);
  if (!distDir) throw new Error('usage: tsx bench/profile-pages.ts <distDir> [paths...]');
  printProfiles(
    await profilePages(
      distDir,
      paths.length
        ? paths
        : ['/home', '/explore', '/library', '/track/{track}', '/artist/{artist}'],
      { runs: Number(process.env.RUNS ?? 1) },
    ),
    Number(process.env.TOP ?? 12),
  );
}
