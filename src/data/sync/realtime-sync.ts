/**
 * Realtime as a pull trigger (docs/sync.md, docs/realtime.md): after sign-in, in idle time, the
 * app opens one Realtime connection and watches the user's own rows. A change made on another
 * device (a like, a playlist edit, a follow, lyrics, a listen) makes the engine pull within a
 * moment, by checkpoint as always, so nothing depends on the message itself and nothing is
 * missed while disconnected (every re-subscription pulls too).
 *
 * `watchListens` serves Friends Activity: the listens of the followed users as they happen.
 */
import { whenIdle } from '@/lib/when-idle';
import { authStore } from '../auth/auth-store';
import { getDb, observe } from '../db';
import type {
  RealtimeChange,
  RealtimeConnection,
  RealtimeSubscription,
} from '../remote/realtime-remote';
import { currentEngine, fetchOnDemand } from './app-sync';

let connection: Promise<RealtimeConnection | null> | null = null;
let connectedUser: string | null = null;
let stopOwn: (() => void) | null = null;
let stopFollowed: (() => void) | null = null;
let pullTimer: ReturnType<typeof setTimeout> | undefined;
const listenWatchers = new Map<symbol, { userIds: string[]; onListen: () => void }>();
let stopListens: (() => void) | null = null;

/** Many messages at once (a batch of writes elsewhere) make one pull. */
function pullSoon(): void {
  if (pullTimer) return;
  pullTimer = setTimeout(() => {
    pullTimer = undefined;
    currentEngine()?.requestPull();
  }, 100);
}

function onOwnChange(change: RealtimeChange): void {
  if (change.table === 'track_lyrics') {
    const trackId = change.row.track_id;
    if (typeof trackId === 'string') void fetchOnDemand.lyrics(trackId);
    return;
  }
  pullSoon();
}

/**
 * Realtime is not needed for the first paint (the start pull brings the state): it loads a few
 * seconds after sign-in, then when the browser is idle (at the latest 5 s later), off the page's
 * critical path.
 */
const REALTIME_DELAY_MS = 3000;
const REALTIME_IDLE_TIMEOUT_MS = 5000;

function watchOwn(conn: RealtimeConnection, userId: string): () => void {
  return conn.watch(
    `sync-${userId}`,
    [
      { event: '*', table: 'liked_tracks', filter: `user_id=eq.${userId}` },
      { event: '*', table: 'playlists', filter: `created_by=eq.${userId}` },
      { event: '*', table: 'followers', filter: `follower_id=eq.${userId}` },
      { event: 'UPDATE', table: 'profiles', filter: `id=eq.${userId}` },
      { event: '*', table: 'track_lyrics', filter: `last_edited_by=eq.${userId}` },
      { event: 'INSERT', table: 'listening_history', filter: `user_id=eq.${userId}` },
      { event: '*', table: 'tracks', filter: `uploaded_by=eq.${userId}` },
    ],
    { onChange: onOwnChange, onSubscribed: pullSoon },
  );
}

/** Supabase Realtime accepts at most 100 values in an `in` filter. */
const IN_FILTER_MAX = 100;

/** `column=in.(…)` subscriptions for any number of ids, 100 per filter. */
function inSubscriptions(
  base: Omit<RealtimeSubscription, 'filter'>,
  column: string,
  ids: readonly string[],
): RealtimeSubscription[] {
  const subscriptions: RealtimeSubscription[] = [];
  for (let i = 0; i < ids.length; i += IN_FILTER_MAX)
    subscriptions.push({
      ...base,
      filter: `${column}=in.(${ids.slice(i, i + IN_FILTER_MAX).join(',')})`,
    });
  return subscriptions;
}

/**
 * The tracks of the artists the user follows (new uploads, play counts, edits), whatever page is
 * open: a change makes the engine pull, so every list, track page and artist page that shows one
 * of them updates without a reload. The followed ids come from the mirror and are watched, so a
 * follow or unfollow (here or on another device) re-subscribes.
 */
function watchFollowedArtists(conn: RealtimeConnection, userId: string): () => void {
  let key: string | null = null;
  let stopChannel: (() => void) | null = null;
  const stopObserving = observe(
    async () =>
      (await getDb().follows.where('followerId').equals(userId).toArray())
        .map((f) => f.followingId)
        .sort(),
    (ids) => {
      const next = ids.join(',');
      if (next === key) return;
      key = next;
      stopChannel?.();
      stopChannel = null;
      if (ids.length === 0) return;
      stopChannel = conn.watch(
        'followed-artists',
        inSubscriptions({ event: '*', table: 'tracks' }, 'uploaded_by', ids),
        { onChange: pullSoon },
      );
    },
  );
  return () => {
    stopObserving();
    stopChannel?.();
  };
}

/** The followed users' listens, for whoever watches them (Friends Activity). */
function rewatchListens(): void {
  stopListens?.();
  stopListens = null;
  const ids = [...new Set([...listenWatchers.values()].flatMap((w) => w.userIds))].sort();
  if (ids.length === 0 || !connection) return;
  let cancelled = false;
  let stop: (() => void) | null = null;
  stopListens = () => {
    cancelled = true;
    stop?.();
  };
  void connection.then((conn) => {
    if (!conn || cancelled) return;
    const listens = inSubscriptions(
      { event: 'INSERT', table: 'listening_history' },
      'user_id',
      ids,
    );
    stop = conn.watch('friends', listens, {
      onChange: () => {
        for (const w of listenWatchers.values()) w.onListen();
      },
    });
  });
}

/**
 * Calls `onListen` when one of `userIds` plays a track (RLS lets a follower read their
 * listens). Returns the function that stops watching.
 */
export function watchListens(userIds: readonly string[], onListen: () => void): () => void {
  const key = Symbol('listens');
  listenWatchers.set(key, { userIds: [...userIds], onListen });
  rewatchListens();
  return () => {
    listenWatchers.delete(key);
    rewatchListens();
  };
}

function disconnect(): void {
  stopOwn?.();
  stopOwn = null;
  stopFollowed?.();
  stopFollowed = null;
  stopListens?.();
  stopListens = null;
  const closing = connection;
  connection = null;
  connectedUser = null;
  void closing?.then((conn) => conn?.close());
}

/** Opens Realtime for the signed-in user (in idle time) and closes it on sign-out. */
export function bindRealtime(): () => void {
  const follow = () => {
    const userId = authStore.getSnapshot().session?.user.id ?? null;
    if (userId === connectedUser) return;
    disconnect();
    if (!userId) return;
    connectedUser = userId;
    const pending = new Promise<RealtimeConnection | null>((resolve) => {
      const open = () => {
        if (connectedUser !== userId) return resolve(null);
        import('../remote/realtime-remote')
          .then(({ openRealtime }) => openRealtime())
          .then(resolve, (error: unknown) => {
            // Without Realtime the app still syncs on focus, reconnect and every 5 minutes.
            console.error('Realtime unavailable', error);
            resolve(null);
          });
      };
      setTimeout(() => whenIdle(open, REALTIME_IDLE_TIMEOUT_MS), REALTIME_DELAY_MS);
    });
    connection = pending;
    void pending.then((conn) => {
      if (!conn) return;
      if (connection !== pending) {
        void conn.close();
        return;
      }
      stopOwn = watchOwn(conn, userId);
      stopFollowed = watchFollowedArtists(conn, userId);
      rewatchListens();
    });
  };
  follow();
  const unsubscribe = authStore.subscribe(follow);
  return () => {
    unsubscribe();
    disconnect();
  };
}
