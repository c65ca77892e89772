/**
 * The sync engine of one signed-in user: pushes the outbox (push.ts) and pulls changes
 * (pull.ts), one run at a time, in the tab that holds the sync lock (leader.ts). Retries with
 * backoff 200 ms × 2^n + jitter, re-armed on online / focus / visibility; pulls on start,
 * reconnect, focus and every few minutes. Start one per sign-in; stop it on sign-out.
 */
import { observe, type SoundloftDb } from '../db';
import { classify, RemoteError, retryDelay } from './errors';
import { acquireLeadership, onWrite } from './leader';
import { resetInflight, userQueue } from './outbox';
import { pullAll } from './pull';
import { push, type PushOutcome } from './push';
import { createStatusStore, type StatusStore } from './status-store';
import type { SyncRemote } from './types';
import type { DeadLetter } from '../db';

export interface EngineOptions {
  db: SoundloftDb;
  remote: SyncRemote;
  userId: string;
  /** This device's id (sent with every batch); read from / stored in meta when omitted. */
  clientId?: string;
  batchSize?: number;
  overlapMs?: number;
  pullIntervalMs?: number;
  random?: () => number;
  /**
   * false: lead without Web Locks, window events or BroadcastChannel, and run only when asked
   * (syncNow, nudge, retry) or when a backoff timer fires: tests and benchmarks.
   */
  autoRun?: boolean;
  onRejected?: (letter: DeadLetter) => void;
  /** false: pulls skip the own profile and history (tests that do not read them). */
  pullExtras?: boolean;
  /** false: no backoff timers (a caller that drives every run itself, like the property test). */
  scheduleRetries?: boolean;
}

export interface SyncEngine {
  readonly userId: string;
  readonly status: StatusStore;
  start(): void;
  stop(): Promise<void>;
  /** Push soon (after a local write). */
  nudge(): void;
  /** Pull soon. */
  requestPull(): void;
  /** Retry now: push and pull, ignoring the backoff. */
  retry(): void;
  /** Forget the failed (rejected) writes shown to the user. */
  dismissFailures(): Promise<void>;
  /** One push and one pull, awaited (tests, sign-out checks). */
  syncNow(options?: { pull?: boolean }): Promise<PushOutcome>;
  pendingCount(): Promise<number>;
  /** Before signing out: writes not yet on the server would be kept for this user only. */
  beforeSignOut(): Promise<{ pending: number; safe: boolean }>;
}

async function clientIdOf(db: SoundloftDb): Promise<string> {
  const existing = await db.meta.get('clientId');
  if (typeof existing?.value === 'string') return existing.value;
  const id = crypto.randomUUID();
  await db.meta.put({ key: 'clientId', value: id });
  return id;
}

const online = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/**
 * meta key: the last request of this device got no response at all. Kept across reloads so a
 * page reloaded where nothing gets through (navigator.onLine may say online: a captive portal, a
 * dead link) shows Offline at once instead of 'Syncing' until its first request times out.
 */
const UNREACHABLE_KEY = 'syncUnreachable';

export function createSyncEngine(options: EngineOptions): SyncEngine {
  const { db, remote, userId } = options;
  const status = createStatusStore();
  const random = options.random ?? Math.random;
  let clientId = options.clientId ?? null;
  let attempt = 0;
  let wantPush = false;
  let wantPull = false;
  let running: Promise<PushOutcome> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let interval: ReturnType<typeof setInterval> | null = null;
  let leader = false;
  let stopped = false;
  let pushBlocked = false;
  /**
   * The last request got no response at all. navigator.onLine alone is not enough: it can say
   * online while nothing gets through (a page reloaded while offline, a captive portal).
   */
  let unreachable = false;
  /** Whether the last session's `unreachable` has been read back (once, at the first run). */
  let recalled = false;
  const cleanups: (() => void)[] = [];

  /** Sets `unreachable` from a request's answer (or its lack) and remembers it for a reload. */
  const answered = (gotResponse: boolean) => {
    if (unreachable === !gotResponse) return;
    unreachable = !gotResponse;
    void db.meta.put({ key: UNREACHABLE_KEY, value: unreachable }).catch(() => undefined);
  };

  /**
   * The indicator while a request is tried: offline when the browser says so or nothing got
   * through last time (a retry does not flip it to syncing), else syncing. The request is still
   * made: its answer decides (session 12: a reload offline showed 'Syncing' until it failed).
   */
  const attemptPhase = () => (unreachable || !online() ? 'offline' : 'syncing');

  const fail = (letter: DeadLetter) => {
    status.set({ lastFailure: letter.userMessage });
    options.onRejected?.(letter);
  };

  async function runOnce(): Promise<PushOutcome> {
    clientId ??= await clientIdOf(db);
    if (!recalled) {
      recalled = true;
      const last = await db.meta.get(UNREACHABLE_KEY).catch(() => undefined);
      if (last?.value === true) unreachable = true;
    }
    let outcome: PushOutcome = { kind: 'done', sent: 0 };
    while ((wantPush && !pushBlocked) || wantPull) {
      if (wantPush && !pushBlocked) {
        wantPush = false;
        status.set({ phase: attemptPhase() });
        outcome = await push({
          db,
          remote,
          userId,
          clientId,
          batchSize: options.batchSize,
          onRejected: fail,
        }).catch((error: unknown): PushOutcome => ({
          kind: 'retry',
          error: { status: 0, code: '', message: String(error) },
        }));
        if (outcome.kind === 'retry') answered(outcome.error.status !== 0);
        else if (outcome.kind === 'done' && outcome.sent > 0) answered(true);
        handle(outcome);
      }
      if (wantPull) {
        wantPull = false;
        status.set({ phase: attemptPhase() });
        try {
          await pullWithRefresh();
          answered(true);
          status.set({
            lastPulledAt: Date.now(),
            ...(outcome.kind === 'done' ? { lastError: null } : {}),
          });
        } catch (error) {
          // A failed read keeps the mirror as it is (screens keep showing it).
          if (error instanceof RemoteError) answered(error.status !== 0);
          status.set({ lastError: error instanceof Error ? error.message : String(error) });
        }
      }
    }
    if (status.getSnapshot().phase !== 'signed-out')
      status.set({ phase: online() && !unreachable ? 'idle' : 'offline' });
    return outcome;
  }

  /** A 401 on a read refreshes the session once, like a push does. */
  async function pullWithRefresh(): Promise<void> {
    const deps = { db, remote, userId, overlapMs: options.overlapMs, extras: options.pullExtras };
    try {
      await pullAll(deps);
    } catch (error) {
      const auth = error instanceof RemoteError && classify(error) === 'auth';
      if (!auth || !(await remote.refreshSession().catch(() => false))) throw error;
      await pullAll(deps);
    }
  }

  function handle(outcome: PushOutcome) {
    if (outcome.kind === 'done') {
      attempt = 0;
      return;
    }
    if (outcome.kind === 'retry') {
      const offline = outcome.error.status === 0;
      status.set({ lastError: outcome.error.message, phase: offline ? 'offline' : 'syncing' });
      // Never sooner than a 429's or 503's Retry-After (tests/faults found it ignored).
      schedule(retryDelay(attempt, outcome.error, random));
      attempt += 1;
      return;
    }
    // auth-failed or wrong-user: keep the outbox, wait for a new session (start a new engine).
    pushBlocked = true;
    status.set({ phase: 'signed-out', lastError: outcome.kind });
  }

  function schedule(delay: number) {
    if (stopped || !leader || options.scheduleRetries === false) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      wantPush = true;
      kick();
    }, delay);
  }

  function kick(): Promise<PushOutcome> {
    if (stopped) return Promise.resolve({ kind: 'done', sent: 0 });
    if (running) return running.then(() => kick());
    running = runOnce().finally(() => {
      running = null;
    });
    return running;
  }

  function rearm() {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    attempt = 0;
    // Back online, focused or visible: unknown until the next request answers.
    unreachable = false;
    wantPush = true;
    wantPull = true;
    if (leader) void kick();
  }

  const engine: SyncEngine = {
    userId,
    status,
    start() {
      stopped = false;
      if (!online()) status.set({ phase: 'offline' });
      void resetInflight(db);
      cleanups.push(
        observe(
          async () => ({
            pending: await userQueue(db, userId).count(),
            failed: await db.deadLetters.where('userId').equals(userId).count(),
          }),
          (counts) => status.set(counts),
        ),
      );
      if (options.autoRun === false) {
        leader = true;
        return;
      }
      cleanups.push(
        acquireLeadership(() => {
          leader = true;
          rearm();
        }),
      );
      cleanups.push(onWrite(() => engine.nudge()));
      if (typeof window !== 'undefined') {
        const onOnline = () => rearm();
        const onOffline = () => status.set({ phase: 'offline' });
        const onVisible = () => {
          if (document.visibilityState === 'visible') rearm();
        };
        window.addEventListener('online', onOnline);
        window.addEventListener('offline', onOffline);
        window.addEventListener('focus', onOnline);
        document.addEventListener('visibilitychange', onVisible);
        cleanups.push(() => {
          window.removeEventListener('online', onOnline);
          window.removeEventListener('offline', onOffline);
          window.removeEventListener('focus', onOnline);
          document.removeEventListener('visibilitychange', onVisible);
        });
      }
      interval = setInterval(() => engine.requestPull(), options.pullIntervalMs ?? 300_000);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (interval) clearInterval(interval);
      for (const cleanup of cleanups.splice(0)) cleanup();
      leader = false;
      await running?.catch(() => undefined);
    },
    nudge() {
      wantPush = true;
      if (leader && !timer) void kick();
    },
    requestPull() {
      wantPull = true;
      if (leader) void kick();
    },
    retry() {
      pushBlocked = false;
      rearm();
    },
    async dismissFailures() {
      await db.deadLetters.where('userId').equals(userId).delete();
      status.set({ lastFailure: null });
    },
    syncNow({ pull = true } = {}) {
      wantPush = true;
      wantPull ||= pull;
      pushBlocked = false;
      return kick();
    },
    pendingCount: () => userQueue(db, userId).count(),
    async beforeSignOut() {
      const pending = await userQueue(db, userId).count();
      return { pending, safe: pending === 0 };
    },
  };
  return engine;
}
