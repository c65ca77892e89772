/**
 * The app's sync engine: one per signed-in user, started and stopped with the session
 * (startSync(userId) on sign-in, stopSync() on sign-out). A session of another user never sees
 * this user's outbox: the engine drains only entries of its userId, and push() checks the
 * session's user before every batch.
 */
import { useSyncExternalStore } from 'react';
import { createInFlight } from '@/lib/share-in-flight';
import { authStore } from '../auth/auth-store';
import { dbHealthStore, getDb, type DbHealth } from '../db';
import { getSupabase } from '../remote/client';
import { createSyncRemote } from '../remote/sync-remote';
import { createSyncEngine, type SyncEngine } from './engine';
import { refreshLyrics, refreshPlaylist, refreshProfile, refreshTracks } from './refetch';
import { createStatusStore, INITIAL_STATUS, type SyncStatus } from './status-store';
import type { DeadLetter } from '../db';

let engine: SyncEngine | null = null;
const idleStatus = createStatusStore({ ...INITIAL_STATUS, phase: 'signed-out' });
const engineListeners = new Set<() => void>();
const rejectionListeners = new Set<(letter: DeadLetter) => void>();
const remote = createSyncRemote(getSupabase);

function changed() {
  for (const listener of engineListeners) listener();
}

export function startSync(userId: string): SyncEngine {
  if (engine?.userId === userId) return engine;
  void engine?.stop();
  engine = createSyncEngine({
    db: getDb(),
    remote,
    userId,
    onRejected: (letter) => rejectionListeners.forEach((l) => l(letter)),
  });
  engine.start();
  changed();
  return engine;
}

export async function stopSync(): Promise<void> {
  const current = engine;
  engine = null;
  changed();
  await current?.stop();
}

export const currentEngine = (): SyncEngine | null => engine;

/** Toasts: called with each write the server rejected ('Failed to like track'). */
export function onSyncRejection(listener: (letter: DeadLetter) => void): () => void {
  rejectionListeners.add(listener);
  return () => rejectionListeners.delete(listener);
}

/** Sign-out guard: how many of the user's writes are not on the server yet. */
export async function beforeSignOut(): Promise<{ pending: number; safe: boolean }> {
  return engine ? engine.beforeSignOut() : { pending: 0, safe: true };
}

export function retrySync(): void {
  engine?.retry();
}

/** Clears the failed (rejected) writes the indicator counts. */
export async function dismissSyncFailures(): Promise<void> {
  await engine?.dismissFailures();
}

function subscribeStatus(listener: () => void): () => void {
  let inner = (engine?.status ?? idleStatus).subscribe(listener);
  const onEngine = () => {
    inner();
    inner = (engine?.status ?? idleStatus).subscribe(listener);
    listener();
  };
  engineListeners.add(onEngine);
  return () => {
    inner();
    engineListeners.delete(onEngine);
  };
}

const statusSnapshot = (): SyncStatus => (engine?.status ?? idleStatus).getSnapshot();

/**
 * Calls `listener` after each pull of the signed-in user's engine (its `lastPulledAt` moved):
 * code that follows rows a pull does not bring (the downloads' playlists of others).
 */
export function onSyncPulled(listener: () => void): () => void {
  let last = statusSnapshot().lastPulledAt;
  return subscribeStatus(() => {
    const at = statusSnapshot().lastPulledAt;
    if (at === last) return;
    last = at;
    if (at !== null) listener();
  });
}

/** The indicator's data: phase, pending, failed (see syncLabel). */
export function useSyncStatus(): SyncStatus {
  return useSyncExternalStore(subscribeStatus, statusSnapshot, statusSnapshot);
}

/**
 * One derived value of the sync status: the component re-renders only when it changes, not on
 * every phase and pending count of a sync. `select` returns a primitive.
 */
export function useSyncStatusSelector<T>(select: (status: SyncStatus) => T): T {
  const snapshot = () => select(statusSnapshot());
  return useSyncExternalStore(subscribeStatus, snapshot, snapshot);
}

/**
 * Starts and stops the engine with the auth session (call once at app start): sign-in starts
 * it (initial full load, then incremental), another user's sign-in replaces it, sign-out stops
 * it. A token refresh re-arms a push that stopped on a failed refresh.
 */
export function bindSyncToAuth(): () => void {
  const follow = () => {
    const { session, lastEvent } = authStore.getSnapshot();
    const userId = session?.user.id ?? null;
    if (!userId) {
      if (engine) void stopSync();
      return;
    }
    const current = startSync(userId);
    if (lastEvent === 'TOKEN_REFRESHED' || lastEvent === 'SIGNED_IN') current.retry();
  };
  follow();
  return authStore.subscribe(follow);
}

/** Another tab upgraded the database (reload prompt), or storage is full (quota). */
export function useDbHealth(): DbHealth {
  return useSyncExternalStore(
    dbHealthStore.subscribe,
    dbHealthStore.getSnapshot,
    dbHealthStore.getSnapshot,
  );
}

const shared = createInFlight();
const deps = () => ({ db: getDb(), remote, userId: engine?.userId ?? null });

/**
 * Screens that open a row the mirror may not hold (others' profiles, playlists, lyrics). Several
 * components asking for the same row at once share one request.
 */
export const fetchOnDemand = {
  lyrics: (trackId: string) => shared(`lyrics:${trackId}`, () => refreshLyrics(deps(), trackId)),
  playlist: (id: string) => shared(`playlist:${id}`, () => refreshPlaylist(deps(), id)),
  /** refreshUploadLimits: the own profile's plan and monthly uploads. */
  uploadLimits: () => (engine ? fetchOnDemand.profile(engine.userId) : null),
  profile: (id: string) =>
    shared(`profile:${id}:${engine?.userId ?? ''}`, () => refreshProfile(deps(), id)),
  /** A track as the server has it now (the uploader's after a change; gone when deleted). */
  track: (id: string) => shared(`track:${id}`, () => refreshTracks(deps(), [id], true)),
};
