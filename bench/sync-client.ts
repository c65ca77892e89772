/**
 * The client half of `npm run bench -- sync`: the app's own data layer (src/data: Dexie mirror,
 * repositories, outbox, sync engine, supabase-js remote) driven against bench/sync-server.ts. The
 * same code runs in Node (fake-indexeddb) and, bundled by esbuild, in Chromium (real
 * IndexedDB), so it takes src/data as an argument (`DataApi`) instead of importing it: the bench
 * TypeScript project does not compile src/.
 */

export interface BenchServer {
  url: string;
  anonKey: string;
  control: string;
  tracks: string[];
}

interface Db {
  delete(): Promise<void>;
  close(): void;
}

interface Engine {
  start(): void;
  stop(): Promise<void>;
  syncNow(options?: { pull?: boolean }): Promise<{ kind: string }>;
  pendingCount(): Promise<number>;
}

/** The parts of src/data the bench drives (structural: see the module comment). */
export interface DataApi {
  createDb(name: string): Db;
  createTokenClient(options: {
    url: string;
    anonKey: string;
    accessToken: () => Promise<string | null>;
  }): unknown;
  createSyncRemote(
    getClient: () => Promise<never>,
    options: { currentUserId: () => Promise<string | null>; refresh: () => Promise<boolean> },
  ): unknown;
  createSyncEngine(options: {
    db: Db;
    remote: unknown;
    userId: string;
    autoRun: false;
    scheduleRetries: false;
  }): Engine;
  createRepositories(deps: { db: Db; currentUserId: () => string | null }): {
    likes: { toggle(trackId: string): Promise<boolean> };
  };
  count(db: Db, table: 'tracks' | 'likes'): Promise<number>;
}

export interface SyncFigures {
  /** ms per likes.toggle (Dexie update + outbox entry in one transaction). */
  writes: { n: number; p50: number; p95: number; mean: number };
  replay: { n: number; ms: number; opsPerSecond: number; serverRows: number };
  incrementalPull: { rows: number; ms: number; mirrorLikes: number };
  /** Fresh device, first sign-in: every table's full load (fetchAllData). */
  fullLoad: { tracks: number; ms: number[]; median: number };
}

interface Device {
  db: Db;
  engine: Engine;
  likes: { toggle(trackId: string): Promise<boolean> };
  close(): Promise<void>;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function device(api: DataApi, server: BenchServer, userId: string): Promise<Device> {
  const { token } = await json<{ token: string }>(`${server.control}/token?sub=${userId}`);
  const db = api.createDb(`sync-bench-${crypto.randomUUID()}`);
  const client = api.createTokenClient({
    url: server.url,
    anonKey: server.anonKey,
    accessToken: async () => token,
  });
  const remote = api.createSyncRemote(async () => client as never, {
    currentUserId: async () => userId,
    refresh: async () => false,
  });
  const engine = api.createSyncEngine({
    db,
    remote,
    userId,
    autoRun: false,
    scheduleRetries: false,
  });
  engine.start();
  const repos = api.createRepositories({ db, currentUserId: () => userId });
  return {
    db,
    engine,
    likes: repos.likes,
    async close() {
      await engine.stop();
      await db.delete();
    },
  };
}

const newUser = async (server: BenchServer) =>
  (await json<{ id: string }>(`${server.control}/user`, { method: 'POST' })).id;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/**
 * 1. first full load of the catalogue on fresh devices; 2. `n` likes.toggle, each timed;
 * 3. replay of those n queued likes; 4. the incremental pull of them on another device.
 */
export async function measureSync(
  api: DataApi,
  server: BenchServer,
  n = 1000,
  fullLoads = 3,
): Promise<SyncFigures> {
  const user = await newUser(server);
  const writer = await device(api, server, user);
  const reader = await device(api, server, user);
  const extra: Device[] = [];
  try {
    // The reader's likes need a checkpoint, or its next pull would be a full load of them.
    const last = server.tracks.at(-1);
    if (!last) throw new Error('no tracks');
    await writer.likes.toggle(last);
    await writer.engine.syncNow({ pull: false });

    const loads: number[] = [];
    const first = await timed(() => reader.engine.syncNow());
    loads.push(first);
    for (let i = 1; i < fullLoads; i++) {
      const fresh = await device(api, server, await newUser(server));
      extra.push(fresh);
      loads.push(await timed(() => fresh.engine.syncNow()));
    }
    const catalogue = await api.count(reader.db, 'tracks');

    const latencies: number[] = [];
    const liked = server.tracks.slice(0, n);
    for (const id of liked) {
      const t0 = performance.now();
      await writer.likes.toggle(id);
      latencies.push(performance.now() - t0);
    }
    const queued = await writer.engine.pendingCount();
    if (queued !== n) throw new Error(`expected ${n} queued writes, found ${queued}`);

    const replayMs = await timed(async () => {
      const outcome = await writer.engine.syncNow({ pull: false });
      if (outcome.kind !== 'done') throw new Error(`replay ended with ${outcome.kind}`);
    });
    const left = await writer.engine.pendingCount();
    if (left !== 0) throw new Error(`${left} writes still queued after the replay`);
    const serverRows = await countServerLikes(server, user);

    const pullMs = await timed(() => reader.engine.syncNow());
    const mirrorLikes = await api.count(reader.db, 'likes');

    const sorted = [...latencies].sort((a, b) => a - b);
    const sortedLoads = [...loads].sort((a, b) => a - b);
    return {
      writes: {
        n,
        p50: quantile(sorted, 0.5),
        p95: quantile(sorted, 0.95),
        mean: latencies.reduce((s, x) => s + x, 0) / n,
      },
      replay: { n, ms: replayMs, opsPerSecond: (n / replayMs) * 1000, serverRows },
      incrementalPull: { rows: n, ms: pullMs, mirrorLikes },
      fullLoad: { tracks: catalogue, ms: loads, median: quantile(sortedLoads, 0.5) },
    };
  } finally {
    for (const d of [writer, reader, ...extra]) await d.close().catch(() => undefined);
  }
}

/** The server's truth, as the user (RLS: own likes), counted by PostgREST. */
async function countServerLikes(server: BenchServer, userId: string): Promise<number> {
  const { token } = await json<{ token: string }>(`${server.control}/token?sub=${userId}`);
  const res = await fetch(`${server.url}/rest/v1/liked_tracks?select=id&user_id=eq.${userId}`, {
    headers: {
      apikey: server.anonKey,
      authorization: `Bearer ${token}`,
      prefer: 'count=exact',
      range: '0-0',
    },
  });
  const range = res.headers.get('content-range') ?? '';
  return Number(range.split('/')[1] ?? NaN);
}
