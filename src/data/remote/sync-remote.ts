/**
 * The sync engine's backend (src/data/sync/types.ts SyncRemote) on supabase-js: the batch RPC
 * apply_mutations, keyset-paged selects, the own profile. Failures become RemoteError with the
 * HTTP status (0 = no response) so the engine can classify them.
 */
import { PROFILE_COLUMNS } from '../db/mapping';
import { RemoteError } from '../sync/errors';
import type { MutationResult, SelectQuery, SyncRemote, WireMutation } from '../sync/types';
import { sessionUserId, type SoundloftClient } from './client';

interface PostgrestLikeError {
  code?: string;
  message?: string;
  /** Added by the client's fetch from a Retry-After header (lean-client.ts). */
  retry_after_ms?: number;
}

interface Outcome<T> {
  data: T | null;
  error: PostgrestLikeError | null;
  status: number;
}

function fail(outcome: { error: PostgrestLikeError | null; status: number }): never {
  const { error, status } = outcome;
  throw new RemoteError({
    status: status || 0,
    code: error?.code ?? '',
    message: error?.message || 'Request failed',
    ...(typeof error?.retry_after_ms === 'number' ? { retryAfterMs: error.retry_after_ms } : {}),
  });
}

/** A filter value inside PostgREST's or=() tree: quoted, with quotes and backslashes escaped. */
const quote = (value: string) => `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/**
 * A request the server never answers (a hung proxy, a server stuck mid-restart) is given up
 * after this long and retried like a dropped one (status 0): without it one hung request held
 * the engine's run forever, and with it every later push and pull (tests/faults).
 */
export const SYNC_REQUEST_TIMEOUT_MS = 30_000;

interface LooseQuery extends PromiseLike<Outcome<Record<string, unknown>[]>> {
  eq(column: string, value: string): LooseQuery;
  in(column: string, values: string[]): LooseQuery;
  gte(column: string, value: string): LooseQuery;
  or(filters: string): LooseQuery;
  order(column: string, options: { ascending: boolean }): LooseQuery;
  limit(count: number): LooseQuery;
  abortSignal(signal: AbortSignal): LooseQuery;
}

interface LooseClient {
  from(table: string): { select(columns: string): LooseQuery };
}

export function createSyncRemote(
  getClient: () => Promise<SoundloftClient>,
  options: {
    refresh?: () => Promise<boolean>;
    currentUserId?: () => Promise<string | null>;
    /** Default SYNC_REQUEST_TIMEOUT_MS. */
    timeoutMs?: number;
  } = {},
): SyncRemote {
  const deadline = () => AbortSignal.timeout(options.timeoutMs ?? SYNC_REQUEST_TIMEOUT_MS);
  return {
    async currentUserId() {
      if (options.currentUserId) return options.currentUserId();
      return sessionUserId(await getClient());
    },

    async refreshSession() {
      if (options.refresh) return options.refresh();
      const client = await getClient();
      const { data, error } = await client.auth.refreshSession();
      return !error && Boolean(data.session);
    },

    async applyMutations(clientId: string, mutations: WireMutation[]) {
      const client = await getClient();
      const outcome = await client
        .rpc('apply_mutations', {
          p_client_id: clientId,
          p_mutations: mutations as unknown as never,
        })
        .abortSignal(deadline());
      if (outcome.error) fail(outcome);
      if (!Array.isArray(outcome.data)) {
        throw new RemoteError({ status: 500, code: '', message: 'Malformed sync response' });
      }
      return outcome.data as unknown as MutationResult[];
    },

    async select(q: SelectQuery) {
      const client = (await getClient()) as unknown as LooseClient;
      let query = client.from(q.table).select(q.columns ?? '*');
      for (const [column, value] of q.eq ?? []) query = query.eq(column, value);
      if (q.in) query = query.in(q.in[0], q.in[1]);
      if (q.gte) query = query.gte(q.gte[0], q.gte[1]);
      if (q.orderBy) {
        const tie = q.tieBreak ?? 'id';
        if (q.after) {
          const at = quote(q.after.at);
          const id = quote(q.after.id);
          query = query.or(`${q.orderBy}.gt.${at},and(${q.orderBy}.eq.${at},${tie}.gt.${id})`);
        }
        query = query
          .order(q.orderBy, { ascending: !q.descending })
          .order(tie, { ascending: !q.descending });
      }
      if (q.limit) query = query.limit(q.limit);
      const outcome = await query.abortSignal(deadline());
      if (outcome.error) fail(outcome);
      return outcome.data ?? [];
    },

    async profile(userId: string, withPrivate: boolean) {
      const client = await getClient();
      const main = await client
        .from('profiles')
        .select(PROFILE_COLUMNS)
        .eq('id', userId)
        .abortSignal(deadline())
        .maybeSingle();
      if (main.error) fail(main);
      let priv: Record<string, unknown> | null = null;
      if (withPrivate) {
        const p = await client
          .from('profiles_private')
          .select('id,email,balance,subscription_plan,monthly_uploads,monthly_uploads_month')
          .eq('id', userId)
          .abortSignal(deadline())
          .maybeSingle();
        if (p.error) fail(p);
        priv = p.data as Record<string, unknown> | null;
      }
      return { profile: main.data as Record<string, unknown> | null, private: priv };
    },
  };
}
