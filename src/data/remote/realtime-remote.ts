/**
 * The app's Realtime connection (Supabase Realtime's protocol: hosted Supabase, or the embedded
 * server's /realtime/v1/websocket). `@supabase/realtime-js` loads on first use, after sign-in,
 * never with the first paint. Messages only make the sync engine pull sooner: the outbox and the
 * checkpoints stay the source of truth (docs/realtime.md, docs/sync.md).
 */
import type { RealtimeChannel, RealtimeClient } from '@supabase/realtime-js';
import { getSupabase } from './client';
import { loadBackendConfig } from './config';

export type RealtimeTable =
  | 'liked_tracks'
  | 'playlists'
  | 'followers'
  | 'profiles'
  | 'track_lyrics'
  | 'listening_history'
  | 'tracks';

/** One change as the app uses it: which table, what happened, the row (or its key). */
export interface RealtimeChange {
  table: RealtimeTable;
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  row: Record<string, unknown>;
}

export interface RealtimeSubscription {
  event: '*' | 'INSERT' | 'UPDATE' | 'DELETE';
  table: RealtimeTable;
  filter?: string;
}

export interface RealtimeConnection {
  /**
   * A channel of these subscriptions. `onChange` gets each change; `onSubscribed` runs on every
   * (re)subscription, when changes may have been missed (the caller catches up by pulling).
   * A channel the server closed (an expired token) is opened again with backoff.
   */
  watch(
    name: string,
    subscriptions: RealtimeSubscription[],
    handlers: { onChange: (change: RealtimeChange) => void; onSubscribed?: () => void },
  ): () => void;
  close(): Promise<void>;
}

/** Backoff of channel re-joins: 1 s, 2 s, 4 s … 30 s, with jitter. */
export function rejoinDelay(attempt: number): number {
  const base = Math.min(30_000, 1000 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}

export async function openRealtime(): Promise<RealtimeConnection> {
  const [{ RealtimeClient }, config, supabase] = await Promise.all([
    import('@supabase/realtime-js'),
    loadBackendConfig(),
    getSupabase(),
  ]);
  const accessToken = async () =>
    (await supabase.auth.getSession()).data.session?.access_token ?? null;
  const client: RealtimeClient = new RealtimeClient(
    `${config.url.replace(/\/$/, '')}/realtime/v1`,
    {
      params: { apikey: config.anonKey },
      // Read before each heartbeat: a refreshed session reaches the server as `access_token`.
      accessToken,
    },
  );
  // The join carries the user's token (otherwise it would go out as the anon key).
  await client.setAuth();
  let closed = false;

  return {
    watch(name, subscriptions, { onChange, onSubscribed }) {
      let channel: RealtimeChannel | null = null;
      let retry: ReturnType<typeof setTimeout> | undefined;
      let attempt = 0;
      let stopped = false;
      const open = () => {
        if (stopped || closed) return;
        let next = client.channel(`${name}:${Math.random().toString(36).slice(2, 8)}`);
        for (const s of subscriptions) {
          next = next.on(
            'postgres_changes',
            {
              event: s.event as '*',
              schema: 'public',
              table: s.table,
              ...(s.filter ? { filter: s.filter } : {}),
            },
            (payload: { eventType: RealtimeChange['type']; new: object; old: object }) =>
              onChange({
                table: s.table,
                type: payload.eventType,
                row: (payload.eventType === 'DELETE' ? payload.old : payload.new) as Record<
                  string,
                  unknown
                >,
              }),
          );
        }
        channel = next;
        next.subscribe((status) => {
          if (status === 'SUBSCRIBED') {
            attempt = 0;
            onSubscribed?.();
          } else if (status === 'CLOSED' && !stopped && !closed) {
            // Closed by the server (token expired, limits): open a new channel after a while.
            // Errors and timeouts are re-joined by realtime-js itself.
            clearTimeout(retry);
            retry = setTimeout(open, rejoinDelay(attempt++));
          }
        });
      };
      open();
      return () => {
        stopped = true;
        clearTimeout(retry);
        if (channel) void client.removeChannel(channel);
      };
    },
    async close() {
      closed = true;
      await client.removeAllChannels();
      await client.disconnect();
    },
  };
}
