/**
 * Integration harness: the real REST server (server/rest on migrated PGlite) in a child process
 * (rest-server-process.mjs), and sync clients against it, each with its own Dexie database, its
 * own engine and a fetch that injects faults. Runs in the jsdom test project.
 */
import { createDb, type SoundloftDb } from '../../../src/data/db';
import { createTokenClient } from '../../../src/data/remote/create-client';
import { createSyncRemote } from '../../../src/data/remote/sync-remote';
import { createRepositories, type Repositories } from '../../../src/data/repositories';
import { createSyncEngine, type SyncEngine } from '../../../src/data/sync/engine';

export interface ServerInfo {
  url: string;
  anonKey: string;
  serviceKey: string;
  control: string;
  uploader: string;
  tracks: string[];
  /** The fault-injecting proxy in front of `url` (tests/support/faults), when there is one. */
  proxyUrl?: string;
}

interface ChildLike {
  stdout: { on(event: 'data', cb: (chunk: unknown) => void): void };
  stderr: { on(event: 'data', cb: (chunk: unknown) => void): void };
  on(event: 'exit', cb: (code: number | null) => void): void;
  kill(signal?: string): boolean;
}

export interface RunningServer extends ServerInfo {
  stop(): Promise<void>;
  newUser(): Promise<string>;
  /** A confirmed user on the admin list. */
  newAdmin(): Promise<string>;
  token(userId: string, ttlSeconds?: number): Promise<string>;
  /** Reads as service_role (bypasses RLS): the server's truth. */
  serverRows(
    table: 'liked_tracks' | 'playlists' | 'followers' | 'sync_mutations',
    column: string,
    userId: string,
  ): Promise<Record<string, unknown>[]>;
}

/**
 * Starts the server process and reads its first stdout line. `script`: another process printing
 * the same line (the fault proxy of tests/support/faults, which runs this server behind it);
 * `env`: added to the child's environment.
 */
export async function startServerProcess(
  options: { script?: URL; env?: Record<string, string> } = {},
): Promise<RunningServer> {
  const childProcess = 'node:child_process';
  const { spawn } = (await import(/* @vite-ignore */ childProcess)) as {
    spawn(
      cmd: string,
      args: string[],
      opts: { stdio: string[]; env: Record<string, string | undefined> },
    ): ChildLike;
  };
  const proc = (
    globalThis as unknown as {
      process: { execPath: string; cwd(): string; env: Record<string, string | undefined> };
    }
  ).process;
  // In the jsdom project import.meta.url is served from the project root (http://host/src/...).
  const path = (options.script ?? new URL('./rest-server-process.mjs', import.meta.url)).pathname;
  const script = path.startsWith(proc.cwd()) ? path : `${proc.cwd()}${path}`;
  const child = spawn(proc.execPath, ['--import', 'tsx', script], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...proc.env, ...options.env },
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += String(c)));
  const info = await new Promise<ServerInfo>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += String(c);
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(JSON.parse(line) as ServerInfo);
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
  const service = createTokenClient({
    url: info.url,
    anonKey: info.anonKey,
    accessToken: async () => info.serviceKey,
  });
  return {
    ...info,
    stop: () =>
      new Promise<void>((resolve) => {
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
    async newUser() {
      const res = await fetch(`${info.control}/user`, { method: 'POST' });
      return ((await res.json()) as { id: string }).id;
    },
    async newAdmin() {
      const res = await fetch(`${info.control}/admin`, { method: 'POST' });
      return ((await res.json()) as { id: string }).id;
    },
    async token(userId, ttlSeconds = 3600) {
      const res = await fetch(`${info.control}/token?sub=${userId}&ttl=${ttlSeconds}`);
      return ((await res.json()) as { token: string }).token;
    },
    async serverRows(table, column, userId) {
      const { data, error } = await service.from(table).select('*').eq(column, userId);
      if (error) throw new Error(error.message);
      return data as Record<string, unknown>[];
    },
  };
}

/** What the next requests of a client suffer, in order (then requests go through). */
export type Fault = 'ok' | 'drop-request' | 'drop-response' | 'expired-token' | 'server-error';

export interface TestClient {
  db: SoundloftDb;
  repos: Repositories;
  engine: SyncEngine;
  faults: Fault[];
  /** Every mutation id this client sent (from the request bodies). */
  sentIds: Set<string>;
  /** Switch the session to another user (the engine keeps its own userId). */
  signInAs(userId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * `sameDevice`: a second tab of that client (same database, its own engine and fetch);
 * `requestTimeoutMs`: the sync remote's request timeout (tests/faults: the proxy never answers);
 * `scheduleRetries`: the engine retries on its own backoff timers (default: the test drives it).
 */
export async function createTestClient(
  server: RunningServer,
  userId: string,
  sameDevice?: TestClient,
  {
    requestTimeoutMs,
    scheduleRetries = false,
  }: { requestTimeoutMs?: number; scheduleRetries?: boolean } = {},
): Promise<TestClient> {
  const db = sameDevice?.db ?? createDb(`sync-it-${crypto.randomUUID()}`);
  let sessionUser = userId;
  let token = await server.token(userId);
  const faults: Fault[] = [];
  const sentIds = new Set<string>();
  const faultyFetch: typeof fetch = async (input, init) => {
    const fault = faults.shift() ?? 'ok';
    const record = (response: Response) => {
      if (!response.ok || !String(input).includes('/rpc/apply_mutations')) return;
      const body = JSON.parse(String(init?.body)) as { p_mutations: { id: string }[] };
      for (const m of body.p_mutations) sentIds.add(m.id);
    };
    if (fault === 'drop-request') throw new TypeError('Failed to fetch');
    if (fault === 'server-error') {
      return new Response(
        JSON.stringify({ code: '', message: 'Internal Server Error', details: null, hint: null }),
        {
          status: 500,
          headers: { 'content-type': 'application/json' },
        },
      );
    }
    if (fault === 'expired-token') {
      token = await server.token(sessionUser, -120);
      const headers = new Headers(init?.headers);
      headers.set('Authorization', `Bearer ${token}`);
      const response = await fetch(input, { ...init, headers });
      record(response);
      return response;
    }
    const response = await fetch(input, init);
    record(response);
    if (fault === 'drop-response') throw new TypeError('Failed to fetch');
    return response;
  };
  const client = createTokenClient({
    url: server.url,
    anonKey: server.anonKey,
    accessToken: async () => token,
    fetch: faultyFetch,
  });
  const remote = createSyncRemote(async () => client, {
    currentUserId: async () => sessionUser,
    refresh: async () => {
      token = await server.token(sessionUser);
      return true;
    },
    ...(requestTimeoutMs ? { timeoutMs: requestTimeoutMs } : {}),
  });
  const engine = createSyncEngine({ db, remote, userId, autoRun: false, scheduleRetries });
  engine.start();
  return {
    db,
    repos: createRepositories({ db, currentUserId: () => userId }),
    engine,
    faults,
    sentIds,
    async signInAs(other) {
      sessionUser = other;
      token = await server.token(other);
    },
    async close() {
      await engine.stop();
      if (!sameDevice) await db.delete();
    },
  };
}

/** Syncs until the outbox is empty (retries included), at most `rounds` times. */
export async function drain(client: TestClient, rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await client.engine.syncNow({ pull: false });
    if ((await client.engine.pendingCount()) === 0) return;
  }
  throw new Error('outbox did not drain');
}
