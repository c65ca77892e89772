/**
 * `npm run bench -- offline` (docs/offline.md): the seeded premium listener in the production
 * build, service worker on, Chromium.
 * - download: from the click on 'Download' of a 10-track playlist to every file being in the
 *   downloads cache ('Downloaded'), over loopback;
 * - storage: the bytes of the downloaded files, and the origin's usage by
 *   navigator.storage.estimate;
 * - offline click-to-audio: the device offline, the app reloaded from the precache, the click on
 *   a row's play button to the audio clock of that track advancing, served by the service worker
 *   from the downloads cache (p50/p95; goal <= 40 ms p50 on this machine with Howler), beside a
 *   bare audible `new Audio().play()` on the same cached file.
 */
import { chromium, type Page } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import { WebSocket } from 'ws';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/chromium';
import { startAppServer } from './app-server';
import { percentile } from './explore-catalogue';
import { loadavg } from 'node:os';
import {
  clickToAudio,
  PERSON_PRESS_MS,
  seriesPressMs,
  clockStarted,
  pressLead,
  installMatcher,
  installPhaseTrace,
  playPhases,
  rawPlayToAudio,
  type PlayPhases,
} from './player-measure';

const EMAIL = 'premium@soundloft.local';
const PASSWORD = 'soundloft-demo';
const TRACKS = 10;
const CLICKS = 20;

async function controlled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise<void>((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), {
          once: true,
        }),
      );
  });
}

/**
 * Signs the seeded premium listener in (the API and the page), makes a playlist `name` of the
 * first TRACKS tracks and downloads it in the page: from the click on 'Download' to every file in
 * the downloads cache ('Downloaded'). The page is left on the playlist, online.
 */
export async function downloadPlaylist(page: Page, base: string, name: string) {
  const { anonKey } = (await (await fetch(`${base}/_dev/config`)).json()) as { anonKey: string };
  const supabase = createClient(base, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  const { data: auth, error: signInError } = await supabase.auth.signInWithPassword({
    email: EMAIL,
    password: PASSWORD,
  });
  if (signInError) throw signInError;
  const { data: tracks, error } = await supabase
    .from('tracks')
    .select('id,title')
    .order('created_at')
    .limit(TRACKS);
  if (error) throw error;
  const { data: playlist, error: insertError } = await supabase
    .from('playlists')
    .insert({ name, created_by: auth.user.id, track_ids: tracks.map((t) => t.id) })
    .select('id')
    .single();
  if (insertError) throw insertError;
  await page.goto('/login');
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').and(page.locator('input')).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL(/\/home/, { timeout: 60_000 });
  await controlled(page);
  await page.goto(`/playlist/${playlist.id}`);
  const download = page.getByRole('button', { name: `Download ${name}` });
  await download.waitFor({ timeout: 60_000 });
  const started = performance.now();
  await download.click();
  await page
    .getByRole('button', { name: `Remove download of ${name}` })
    .filter({ hasText: 'Downloaded' })
    .waitFor({ timeout: 300_000 });
  return { userId: auth.user.id, tracks, downloadMs: performance.now() - started };
}

const ms = (v: number) => `${v.toFixed(0)} ms`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

const loadLine = (when: string) =>
  `  load average at the ${when}: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;

/**
 * Prints `title` and the load, starts the app server (seeded) and Chromium, runs `run` in a new
 * page of a new context, then closes everything and prints the load again.
 */
export async function withAppPage(
  distDir: string,
  title: string,
  run: (page: Page, base: string) => Promise<void>,
): Promise<void> {
  console.log(title);
  console.log(loadLine('start'));
  const server = await startAppServer(distDir, { seed: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ baseURL: server.base });
    await run(await context.newPage(), server.base);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
  console.log(loadLine('end'));
}

export async function benchOffline(distDir: string): Promise<void> {
  const title = '\nOffline (production build, seeded premium listener, service worker, Chromium)';
  await withAppPage(distDir, title, async (page, base) => {
    const context = page.context();
    const { userId, tracks, downloadMs } = await downloadPlaylist(page, base, 'Bench Offline');
    const storage = await page.evaluate(async () => {
      const cache = await caches.open('soundloft-downloads-v1');
      let bytes = 0;
      for (const request of await cache.keys())
        bytes += (await (await cache.match(request))?.arrayBuffer())?.byteLength ?? 0;
      const estimate = await navigator.storage.estimate();
      return { bytes, usage: estimate.usage ?? 0, quota: estimate.quota ?? 0 };
    });

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('button', { name: `Play ${tracks[0]?.title}` }).waitFor();
    await installMatcher(page);
    await installPhaseTrace(page, '/offline-audio/');
    // Instant clicks and a person's (held 100 ms) alternate: seriesPressMs.
    const clicks: number[] = [];
    const pressed: number[] = [];
    const starts: number[] = [];
    const leads: number[] = [];
    const phases: PlayPhases[] = [];
    for (let i = 0; i < CLICKS; i++) {
      // Rows 0, 2, 4...: the preloaded track is the row after the one playing, never this one.
      const track = tracks[(i * 2) % TRACKS] ?? tracks[0];
      if (!track) break;
      const src = `/offline-audio/${userId}/${track.id}`;
      const pressMs = seriesPressMs(i);
      const took = await clickToAudio(
        page,
        page.getByRole('button', { name: `Play ${track.title}`, exact: true }),
        [src],
        pressMs,
      );
      if (pressMs > 0) {
        pressed.push(took);
        leads.push(await pressLead(page));
      } else {
        clicks.push(took);
        starts.push(await clockStarted(page));
        phases.push(await playPhases(page, src));
      }
      await page.waitForTimeout(300);
    }
    // The same page offline without the app: a bare <audio> on the cached file (the service
    // worker and the cache alone).
    const raw: number[] = [];
    for (let i = 0; i < 10; i++) {
      const track = tracks[i % TRACKS];
      if (track)
        raw.push(await rawPlayToAudio(page, `/offline-audio/${userId}/${track.id}`, false));
    }

    const rawSorted = [...raw].sort((a, b) => a - b);
    const sorted = [...clicks].sort((a, b) => a - b);
    console.log(
      `  download of a ${TRACKS}-track playlist over loopback: ${(downloadMs / 1000).toFixed(2)} s (${mib(storage.bytes)}, ${mib((storage.bytes / downloadMs) * 1000)}/s)`,
    );
    console.log(
      `  storage: downloads ${mib(storage.bytes)}; origin usage ${mib(storage.usage)} of a quota of ${mib(storage.quota)}`,
    );
    const figures = (values: number[]) => {
      const v = [...values].sort((a, b) => a - b);
      return `p50 ${ms(percentile(v, 50))}  p95 ${ms(percentile(v, 95))}  min ${ms(v[0] ?? NaN)}  max ${ms(v.at(-1) ?? NaN)}  (${v.length} clicks)`;
    };
    console.log('  offline click to audio through Howler, from the cache (goal <= 40 ms p50):');
    if (clicks.length) console.log(`    instant click (Playwright's): ${figures(clicks)}`);
    if (pressed.length) {
      console.log(`    a person's click, press held ${PERSON_PRESS_MS} ms: ${figures(pressed)}`);
      console.log(
        `    its press (pointerdown) came before the click: ${figures(leads)} (a row's track starts loading there)`,
      );
    }
    if (starts.length)
      console.log(
        `  instant clicks, when the clock started (back-computed from the element's clock when seen): ${figures(starts)}`,
      );
    console.log(
      `  bare audible new Audio().play() on the cached file (no app): p50 ${ms(percentile(rawSorted, 50))}  p95 ${ms(percentile(rawSorted, 95))}  (${rawSorted.length} plays)`,
    );
    // Where the click's time goes: the median of each step's time after the click.
    const step = (name: Exclude<keyof PlayPhases, 'busy'>) => {
      const values = phases
        .map((p) => p[name])
        .filter((v): v is number => v !== null)
        .sort((a, b) => a - b);
      return values.length ? ms(percentile(values, 50)) : 'not seen';
    };
    console.log(
      `  an instant click's steps, p50 after the click: source set ${step('src')}, canplay ${step('canplay')}, canplaythrough ${step('canplaythrough')}, play() ${step('play')}, playing ${step('playing')}, clock moving ${ms(percentile(sorted, 50))}`,
    );
    const busy = phases.map((p) => p.busy).sort((a, b) => a - b);
    console.log(
      `  main thread in long tasks (> 50 ms) from the click to 'playing': p50 ${ms(percentile(busy, 50))}  p95 ${ms(percentile(busy, 95))}`,
    );
  });
}
