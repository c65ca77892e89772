/**
 * `npm run test:faults` (docs/faults.md): the sync engine (src/data/sync, unchanged) against the
 * real REST server behind a fault-injecting proxy (tests/support/faults/fault-proxy-process.ts)
 * that drops connections, answers 500 and 429 (Retry-After), times out, kills the server
 * (SIGKILL) mid-batch and restarts it on the same PGlite data directory, and answers out of
 * order. Two devices of one user, device 0 with a second tab syncing at the same time (no Web
 * Locks), write in rounds and sync under faults; then the faults stop and every queue drains.
 * Every write must be on the server exactly once, nothing lost, order per row kept.
 * FAULTS_SEED replays a run; FAULTS_ROUNDS sets its length.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { likedTrackIds, playlistsOf } from '../../../src/data/repositories/queries';
import { seededRandom } from '../../../src/test/seeded-random';
import {
  createTestClient,
  startServerProcess,
  type RunningServer,
  type TestClient,
} from '../../support/sync/server-harness';

const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } })
  .process.env;
const SEED = Number(env.FAULTS_SEED ?? Date.now() % 100_000);
const ROUNDS = Number(env.FAULTS_ROUNDS ?? 16);
/** FAULTS_ONLY=timeout (a kind of the proxy's): inject that kind alone. */
const ONLY = env.FAULTS_ONLY;
/** The client gives up on a request after this long (the proxy's `timeout` never answers). */
const REQUEST_TIMEOUT_MS = 3_000;
const TRACKS_PER_DEVICE = 10;

let server: RunningServer;
let proxy: string;
beforeAll(async () => {
  // Injected faults make the engine warn about failed re-reads; expected here.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  server = await startServerProcess({
    script: new URL('../../support/faults/fault-proxy-process.ts', import.meta.url),
    env: { SYNC_TEST_TRACKS: String(TRACKS_PER_DEVICE * 2) },
  });
  proxy = server.proxyUrl!;
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

const post = async (path: string, body: unknown = {}) => {
  const res = await fetch(`${proxy}${path}`, { method: 'POST', body: JSON.stringify(body) });
  return res.json() as Promise<unknown>;
};

const readStats = () => fetch(`${proxy}/_faults/stats`).then((r) => r.json() as Promise<Stats>);

interface Stats {
  requests: number;
  faults: Record<string, number>;
  serverDown: number;
  restarts: number;
  restartMs: number[];
  reordered: number;
  timeoutWaitMs: number[];
  timeoutsNotAbandoned: number;
  retryAfterGapMs: number[];
  deliveries: Record<string, number>;
}

/** What one device meant: its likes and its playlists (name, tracks in order). */
interface Model {
  likes: Set<string>;
  playlists: Map<string, { name: string; trackIds: string[] }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Syncs every client until every queue is empty (the server may be restarting meanwhile). */
async function drainAll(clients: TestClient[], deadline = Date.now() + 180_000) {
  for (;;) {
    const pending = await Promise.all(
      clients.map(async (c) => {
        if ((await c.engine.pendingCount()) === 0) return 0;
        await c.engine.syncNow({ pull: false });
        return c.engine.pendingCount();
      }),
    );
    if (pending.every((n) => n === 0)) return;
    if (Date.now() > deadline) throw new Error(`queues did not drain: ${pending.join(', ')}`);
    await sleep(250);
  }
}

it('every write arrives exactly once, in order per row, through drops, 5xx, 429, timeouts, restarts and reordering', async () => {
  const random = seededRandom(SEED);
  const int = (n: number) => Math.floor(random() * n);
  await post('/_faults/plan', {
    seed: SEED,
    rate: 0.35,
    weights: ONLY
      ? { [ONLY]: 1 }
      : {
          'drop-request': 2,
          'drop-response': 2,
          'http-500': 2,
          'http-429': 2,
          timeout: 1,
          restart: 1,
          'out-of-order': 3,
        },
  });
  const viaProxy = { ...server, url: proxy };
  const user = await server.newUser();
  const options = { requestTimeoutMs: REQUEST_TIMEOUT_MS };
  const devices = [
    await createTestClient(viaProxy, user, undefined, options),
    await createTestClient(viaProxy, user, undefined, options),
  ];
  const tab = await createTestClient(viaProxy, user, devices[0], options);
  const models: Model[] = devices.map(() => ({ likes: new Set(), playlists: new Map() }));
  let writes = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [d, c] of devices.entries()) {
        const m = models[d]!;
        const mine = server.tracks.slice(d * TRACKS_PER_DEVICE, (d + 1) * TRACKS_PER_DEVICE);
        for (let i = 0; i < 6; i++) {
          const ids = [...m.playlists.keys()];
          const id = ids[int(ids.length)];
          const track = mine[int(mine.length)]!;
          const kind = int(10);
          writes += 1;
          if (kind < 3 || !id) {
            if (ids.length < 3 && kind === 0) {
              const p = await c.repos.playlists.create(`P${d}-${round}-${i}`);
              m.playlists.set(p.id, { name: p.name, trackIds: [] });
            } else if (await c.repos.likes.toggle(track)) m.likes.add(track);
            else m.likes.delete(track);
          } else if (kind < 6) {
            const p = m.playlists.get(id)!;
            if (await c.repos.playlists.addTrack(id, track)) p.trackIds.push(track);
          } else if (kind < 8) {
            const p = m.playlists.get(id)!;
            const gone = p.trackIds[int(p.trackIds.length)] ?? track;
            await c.repos.playlists.removeTrack(id, gone);
            p.trackIds = p.trackIds.filter((t) => t !== gone);
          } else if (kind < 9) {
            const name = `R${d}-${round}-${i}`;
            await c.repos.playlists.update(id, { name });
            m.playlists.get(id)!.name = name;
          } else {
            await c.repos.playlists.delete(id);
            m.playlists.delete(id);
          }
        }
      }
      // Besides the random ones, a kill mid-batch at a third and two thirds of the run.
      if (!ONLY && (round === Math.floor(ROUNDS / 3) || round === Math.floor((2 * ROUNDS) / 3)))
        await post('/_faults/next', { kind: 'restart' });
      // Device 0 and its second tab push the same queue at once; device 1 at the same time.
      await Promise.all([...devices, tab].map((c) => c.engine.syncNow({ pull: random() < 0.5 })));
    }

    await post('/_faults/off');
    await drainAll([...devices, tab]);
    for (const c of devices) await c.engine.syncNow();
    const stats = await readStats();

    // The server's truth, read past the proxy.
    const likes = (await server.serverRows('liked_tracks', 'user_id', user))
      .map((r) => String(r.track_id))
      .sort();
    const playlists = new Map(
      (await server.serverRows('playlists', 'created_by', user)).map((p) => [
        String(p.id),
        { name: String(p.name), trackIds: p.track_ids as string[] },
      ]),
    );
    const log = await server.serverRows('sync_mutations', 'user_id', user);

    const meantLikes = new Set(models.flatMap((m) => [...m.likes]));
    const meantPlaylists = new Map(models.flatMap((m) => [...m.playlists]));
    const logged = new Set(log.map((r) => String(r.mutation_id)));
    const delivered = Object.keys(stats.deliveries);
    let lost = [...meantLikes].filter((t) => !likes.includes(t)).length;
    lost += delivered.filter((id) => !logged.has(id)).length;
    let duplicated = likes.filter((t) => !meantLikes.has(t)).length;
    let outOfOrder = 0;
    for (const [id, meant] of meantPlaylists) {
      const got = playlists.get(id);
      if (!got) {
        lost += 1 + meant.trackIds.length;
        continue;
      }
      lost += meant.trackIds.filter((t) => !got.trackIds.includes(t)).length;
      duplicated += got.trackIds.filter((t) => !meant.trackIds.includes(t)).length;
      duplicated += got.trackIds.length - new Set(got.trackIds).size;
      const same = (a: string[], b: string[]) => a.join() === b.join();
      const common = (a: string[], b: string[]) => a.filter((t) => b.includes(t));
      if (
        !same(common(got.trackIds, meant.trackIds), common(meant.trackIds, got.trackIds)) ||
        got.name !== meant.name
      )
        outOfOrder += 1;
    }
    duplicated += [...playlists.keys()].filter((id) => !meantPlaylists.has(id)).length;
    const redelivered = Object.values(stats.deliveries).reduce((s, n) => s + n - 1, 0);

    console.log(
      [
        `faults (seed ${SEED}, ${ROUNDS} rounds, 2 devices + 1 tab):`,
        `  writes tried ${writes}; mutations sent ${delivered.length} (the rest cancelled or merged before sending); applied ${log.filter((r) => r.status === 'applied').length}`,
        `  requests ${stats.requests}; faults injected ${Object.values(stats.faults).reduce((s, n) => s + n, 0)}: ${Object.entries(
          stats.faults,
        )
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}`,
        `  server restarts (SIGKILL mid-batch) ${stats.restarts} (${stats.restartMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} each); 502 while down ${stats.serverDown}`,
        `  answers delivered out of order ${stats.reordered}; unanswered requests given up by the client after ${stats.timeoutWaitMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}`,
        `  mutations delivered again and deduplicated by the server ${redelivered}`,
        `  lost ${lost}, duplicated ${duplicated}, out of order ${outOfOrder}`,
      ].join('\n'),
    );

    expect({ lost, duplicated, outOfOrder }).toEqual({ lost: 0, duplicated: 0, outOfOrder: 0 });
    // A request never answered is given up by the client, not waited on forever.
    expect(stats.timeoutsNotAbandoned).toBe(0);
    expect(likes).toEqual([...meantLikes].sort());
    expect(Object.fromEntries(playlists)).toEqual(Object.fromEntries(meantPlaylists));
    expect([...logged].sort()).toEqual([...delivered].sort());
    expect(log.every((r) => r.status === 'applied')).toBe(true);
    for (const c of devices) {
      expect(await c.db.deadLetters.count()).toBe(0);
      expect((await likedTrackIds(c.db, user)).sort()).toEqual(likes);
      const mirror = await playlistsOf(c.db, user);
      expect(
        Object.fromEntries(mirror.map((p) => [p.id, { name: p.name, trackIds: p.trackIds }])),
      ).toEqual(Object.fromEntries(playlists));
    }
    // The run really was hostile.
    if (!ONLY) expect(stats.restarts).toBeGreaterThan(0);
    if (!ONLY) expect(redelivered).toBeGreaterThan(0);
  } finally {
    await tab.close();
    await Promise.all(devices.map((c) => c.close()));
  }
}, 600_000);

it('after a 429 the engine waits the Retry-After the server asked for before sending again', async () => {
  await post('/_faults/plan', { seed: SEED, rate: 1, weights: { 'http-429': 1 }, limit: 1 });
  const before = (await readStats()).retryAfterGapMs.length;
  const user = await server.newUser();
  // The engine's own backoff timers, as in the app (no test driving the retries).
  const c = await createTestClient({ ...server, url: proxy }, user, undefined, {
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    scheduleRetries: true,
  });
  try {
    await c.repos.likes.toggle(server.tracks[0]!);
    expect((await c.engine.syncNow({ pull: false })).kind).toBe('retry');
    const deadline = Date.now() + 60_000;
    while ((await c.engine.pendingCount()) > 0 && Date.now() < deadline) await sleep(100);
    expect(await c.engine.pendingCount()).toBe(0);
    const gaps = (await readStats()).retryAfterGapMs.slice(before);
    console.log(
      `faults, 429 with Retry-After: 1 s: the engine came back after ${gaps.map((ms) => `${ms} ms`).join(', ')}`,
    );
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toBeGreaterThanOrEqual(1000);
    expect(await server.serverRows('liked_tracks', 'user_id', user)).toHaveLength(1);
  } finally {
    await post('/_faults/off');
    await c.close();
  }
}, 120_000);
