import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDb, type DeadLetter, type SoundloftDb } from '../db';
import { createRepositories, type Repositories } from '../repositories';
import { createSyncEngine } from './engine';
import { backoffDelay, classify, RemoteError } from './errors';
import { userQueue } from './outbox';
import { push } from './push';
import { createFakeRemote, type FakeRemote } from '../../test/fake-sync-remote';

const ME = 'user-a';
let db: SoundloftDb;
let repos: Repositories;
let remote: FakeRemote;

beforeEach(() => {
  db = createDb(`push-${crypto.randomUUID()}`);
  repos = createRepositories({ db, currentUserId: () => ME });
  remote = createFakeRemote(ME);
});
afterEach(async () => {
  vi.useRealTimers();
  await db.delete();
});

const deps = (extra: Partial<Parameters<typeof push>[0]> = {}) => ({
  db,
  remote,
  userId: ME,
  clientId: 'c1',
  ...extra,
});

describe('classify and backoff', () => {
  it('retries network, 408, 429, 5xx and a missing RPC; refreshes on 401; rejects the rest', () => {
    expect(classify({ status: 0, code: '', message: 'fetch failed' })).toBe('retry');
    for (const status of [408, 429, 500, 502, 503]) {
      expect(classify({ status, code: '', message: '' })).toBe('retry');
    }
    expect(classify({ status: 404, code: 'PGRST202', message: '' })).toBe('retry');
    expect(classify({ status: 401, code: 'PGRST303', message: 'JWT expired' })).toBe('auth');
    expect(classify({ status: 403, code: '42501', message: 'rls' })).toBe('reject');
    expect(classify({ status: 409, code: '23505', message: '' })).toBe('reject');
    expect(classify({ status: 400, code: 'P0001', message: '' })).toBe('reject');
  });

  it('waits 200 ms × 2^n plus at most half again of jitter, capped', () => {
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, () => 0))).toEqual([200, 400, 800, 1600]);
    expect(backoffDelay(2, () => 1)).toBe(1200);
    expect(backoffDelay(40, () => 0)).toBe(60_000);
  });
});

describe('push', () => {
  it('sends the queue in order, in batches, and empties it', async () => {
    for (const t of ['a', 'b', 'c', 'd', 'e']) await repos.likes.toggle(t);
    const outcome = await push(deps({ batchSize: 2 }));
    expect(outcome).toEqual({ kind: 'done', sent: 5 });
    expect(remote.sent.map((b) => b.map((m) => m.args.track_id))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e'],
    ]);
    expect(await userQueue(db, ME).count()).toBe(0);
  });

  it('keeps the queue on network errors and 5xx, counting attempts', async () => {
    await repos.likes.toggle('a');
    remote.script.push({ status: 0, code: '', message: 'Failed to fetch' });
    expect((await push(deps())).kind).toBe('retry');
    const [entry] = await userQueue(db, ME).toArray();
    expect(entry).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('refreshes the session once on 401 and retries; keeps the queue when refresh fails', async () => {
    await repos.likes.toggle('a');
    remote.script.push({ status: 401, code: 'PGRST303', message: 'JWT expired' });
    expect(await push(deps())).toEqual({ kind: 'done', sent: 1 });
    expect(remote.refreshes).toBe(1);

    await repos.likes.toggle('b');
    remote.refreshOk = false;
    remote.script.push({ status: 401, code: 'PGRST303', message: 'JWT expired' });
    expect(await push(deps())).toEqual({ kind: 'auth-failed' });
    expect(await userQueue(db, ME).count()).toBe(1);
  });

  it("never sends a user's queue under another user's session", async () => {
    await repos.likes.toggle('a');
    remote.userId = 'user-b';
    expect(await push(deps())).toEqual({ kind: 'wrong-user' });
    expect(remote.sent).toEqual([]);
    expect(await userQueue(db, ME).count()).toBe(1);
  });

  it('dead-letters a rejection with the spec message and re-reads the row', async () => {
    const letters: DeadLetter[] = [];
    await repos.likes.toggle('a');
    await repos.likes.toggle('b');
    remote.script.push((batch) => [
      { id: batch[0]!.id, status: 'rejected', code: '23503', message: 'fk' },
      { id: batch[1]!.id, status: 'applied' },
    ]);
    remote.tables.liked_tracks = [
      { id: 'x', user_id: ME, track_id: 'b', created_at: '2026-11-22T08:00:00+00:00' },
    ];
    await push(deps({ onRejected: (l) => letters.push(l) }));
    expect(letters.map((l) => l.userMessage)).toEqual(['Failed to like track']);
    expect(await db.deadLetters.count()).toBe(1);
    expect((await db.likes.toArray()).map((l) => l.trackId)).toEqual(['b']);
  });

  it('isolates the culprit when the whole request is refused', async () => {
    await repos.likes.toggle('a');
    await repos.likes.toggle('b');
    remote.script.push({ status: 400, code: '22P02', message: 'bad' });
    remote.script.push({ status: 400, code: '22P02', message: 'bad' });
    const outcome = await push(deps());
    expect(outcome).toEqual({ kind: 'done', sent: 2 });
    expect(remote.sent.map((b) => b.length)).toEqual([2, 1, 1]);
    expect((await db.deadLetters.toArray()).map((l) => l.payload.track_id)).toEqual(['a']);
  });
});

describe('engine', () => {
  it('retries with backoff on fake timers, then reports synced', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    await repos.likes.toggle('a');
    for (let i = 0; i < 3; i++) remote.script.push({ status: 503, code: '', message: 'down' });
    const engine = createSyncEngine({
      db,
      remote,
      userId: ME,
      clientId: 'c1',
      random: () => 0,
      autoRun: false,
    });
    engine.start();
    expect((await engine.syncNow()).kind).toBe('retry');
    expect(remote.sent).toHaveLength(1);
    expect(engine.status.getSnapshot().lastError).toBe('down');
    await vi.advanceTimersByTimeAsync(199);
    expect(remote.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(remote.sent).toHaveLength(2));
    await vi.advanceTimersByTimeAsync(399);
    expect(remote.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(remote.sent).toHaveLength(3));
    // Coming back online re-arms at once instead of waiting 800 ms.
    engine.retry();
    await vi.waitFor(() => expect(remote.sent).toHaveLength(4));
    await vi.waitFor(async () => expect(await engine.pendingCount()).toBe(0));
    await vi.waitFor(() =>
      expect(engine.status.getSnapshot()).toMatchObject({ pending: 0, phase: 'idle' }),
    );
    expect((await engine.beforeSignOut()).safe).toBe(true);
    await engine.stop();
  });

  /**
   * An engine (no timers) over a remote that answers nothing (status 0: a page reloaded while
   * offline) until `reachable()` says so; the queued push fails the same way once.
   */
  /** An engine run by the test (syncNow), without retries of its own. */
  const manualEngine = () =>
    createSyncEngine({
      db,
      remote,
      userId: ME,
      clientId: 'c1',
      autoRun: false,
      scheduleRetries: false,
    });

  function unreachableEngine(reachable: () => boolean) {
    const noResponse = () => new RemoteError({ status: 0, code: '', message: 'Failed to fetch' });
    const { select, profile } = remote;
    remote.select = async (q) => {
      if (!reachable()) throw noResponse();
      return select(q);
    };
    remote.profile = async (id, own) => {
      if (!reachable()) throw noResponse();
      return profile(id, own);
    };
    remote.script.push({ status: 0, code: '', message: 'Failed to fetch' });
    return manualEngine();
  }

  it('never shows syncing while the browser says offline, even while a request is tried', async () => {
    await repos.likes.toggle('a');
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const engine = unreachableEngine(() => false);
    const phases: string[] = [];
    const unsubscribe = engine.status.subscribe(() =>
      phases.push(engine.status.getSnapshot().phase),
    );
    try {
      engine.start();
      expect((await engine.syncNow()).kind).toBe('retry');
      expect(phases).toContain('offline');
      expect(phases).not.toContain('syncing');
    } finally {
      unsubscribe();
      onLine.mockRestore();
      await engine.stop();
    }
  });

  it('after a reload where nothing got through, shows offline at once, not syncing until the first request fails', async () => {
    await repos.likes.toggle('a');
    // The page before the reload: nothing got through.
    let reachable = false;
    const before = unreachableEngine(() => reachable);
    before.start();
    expect((await before.syncNow()).kind).toBe('retry');
    await before.stop();

    // The reloaded page: navigator says online, the first request hangs (a captive portal).
    reachable = true;
    expect(navigator.onLine).toBe(true);
    let release!: () => void;
    const hanging = new Promise<void>((resolve) => (release = resolve));
    const { select } = remote;
    remote.select = async (q) => {
      await hanging;
      return select(q);
    };
    remote.script.length = 0;
    const after = manualEngine();
    const phases: string[] = [];
    const unsubscribe = after.status.subscribe(() => phases.push(after.status.getSnapshot().phase));
    try {
      after.start();
      const run = after.syncNow();
      await vi.waitFor(() => expect(phases).toContain('offline'));
      expect(phases).not.toContain('syncing');
      // It answers: synced, and the next reload starts as usual.
      release();
      expect((await run).kind).toBe('done');
      await vi.waitFor(() =>
        expect(after.status.getSnapshot()).toMatchObject({ phase: 'idle', pending: 0 }),
      );
      expect((await db.meta.get('syncUnreachable'))?.value).toBe(false);
    } finally {
      unsubscribe();
      release();
      await after.stop();
    }
  });

  it('reports offline while requests get no response, even when navigator says online', async () => {
    await repos.likes.toggle('a');
    // No response to anything (a page reloaded while offline; navigator.onLine may still be true).
    let reachable = false;
    const engine = unreachableEngine(() => reachable);
    engine.start();
    expect(navigator.onLine).toBe(true);
    expect((await engine.syncNow()).kind).toBe('retry');
    await vi.waitFor(() =>
      expect(engine.status.getSnapshot()).toMatchObject({ phase: 'offline', pending: 1 }),
    );
    // Requests get through again: synced.
    reachable = true;
    expect((await engine.syncNow()).kind).toBe('done');
    await vi.waitFor(() =>
      expect(engine.status.getSnapshot()).toMatchObject({ phase: 'idle', pending: 0 }),
    );
    await engine.stop();
  });
});
