/**
 * The Supabase client of the app, built from the packages supabase-js itself is made of
 * (auth-js, postgrest-js, functions-js; storage-js on first use) and wired the same way: every
 * request carries the anon key as `apikey` and the session's access token (or the anon key) as
 * the bearer. supabase-js's `createClient` also constructs realtime-js and phoenix, which the app
 * never uses (friends activity is read on open): leaving them out takes about 14 KiB gzip off
 * every signed-in page (docs/architecture.md, "Entry chunk and lazy loading").
 */
import { GoTrueClient as AuthClient, type GoTrueClientOptions } from '@supabase/auth-js';
import { FunctionsClient } from '@supabase/functions-js';
import { PostgrestClient } from '@supabase/postgrest-js';
import type { StorageClient } from '@supabase/storage-js';
import { parseRetryAfter } from '../sync/errors';
import type { Database } from './database.types';
import { owesSecondFactor, sentWithOwedSession } from './second-factor';

const requestUrl = (input: RequestInfo | URL): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

/** The PostgREST dialect supabase-js assumes when the generated types do not name one. */
type Rest = PostgrestClient<Database, { PostgrestVersion: '12' }>;

export interface SoundloftClient {
  /** GoTrue: sessions, sign-in, refresh. Throws on use when the client runs on `accessToken`. */
  readonly auth: AuthClient;
  readonly from: Rest['from'];
  readonly rpc: Rest['rpc'];
  readonly functions: FunctionsClient;
  /** Storage is needed only to upload an avatar, so its code loads on first use. */
  storage(): Promise<StorageClient>;
}

export type AuthOptions = Pick<
  GoTrueClientOptions,
  'storageKey' | 'persistSession' | 'autoRefreshToken' | 'detectSessionInUrl' | 'flowType'
>;

export interface LeanClientOptions {
  url: string;
  anonKey: string;
  /** A GoTrue session kept by the client (the app). */
  auth?: AuthOptions;
  /** Or: the access token comes from elsewhere and is read before every request (tests). */
  accessToken?: () => Promise<string | null>;
  fetch?: typeof fetch;
}

const noAuth = new Proxy({} as AuthClient, {
  get(_target, prop) {
    throw new Error(`The client runs on an access token: auth.${String(prop)} is not available`);
  },
});

/**
 * A refusal with a Retry-After header (429, 503) carries it in its error body as
 * `retry_after_ms`: postgrest-js hands the parsed body on as the error, headers are lost there,
 * and the sync engine must not retry sooner (sync/errors.ts retryDelay).
 */
async function withRetryAfter(response: Response): Promise<Response> {
  const header = response.headers.get('retry-after');
  const ms = !response.ok && header ? parseRetryAfter(header) : null;
  if (ms === null) return response;
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text as the message
  }
  const error =
    body && typeof body === 'object' && !Array.isArray(body)
      ? { ...body, retry_after_ms: ms }
      : { message: text || response.statusText, retry_after_ms: ms };
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(error), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

export function createLeanClient(options: LeanClientOptions): SoundloftClient {
  const { anonKey } = options;
  const base = options.url.endsWith('/') ? options.url : `${options.url}/`;
  const endpoint = (path: string) => new URL(path, base).href;
  const baseFetch: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));

  const auth = options.accessToken
    ? noAuth
    : new AuthClient({
        ...options.auth,
        url: endpoint('auth/v1'),
        headers: { Authorization: `Bearer ${anonKey}`, apikey: anonKey },
        fetch: baseFetch,
      });

  const accessToken = async (url: string): Promise<string> => {
    if (options.accessToken) return (await options.accessToken()) ?? anonKey;
    const { data } = await auth.getSession();
    const session = data.session;
    if (!session) return anonKey;
    // A sign-in that still owes its second factor browses as anon (docs/account.md).
    if (owesSecondFactor(session) && !sentWithOwedSession(url)) return anonKey;
    return session.access_token;
  };

  const fetchWithAuth: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (!headers.has('apikey')) headers.set('apikey', anonKey);
    if (!headers.has('Authorization'))
      headers.set('Authorization', `Bearer ${await accessToken(requestUrl(input))}`);
    return withRetryAfter(await baseFetch(input, { ...init, headers }));
  };

  const rest: Rest = new PostgrestClient(endpoint('rest/v1'), {
    schema: 'public',
    fetch: fetchWithAuth,
  });
  const functions = new FunctionsClient(endpoint('functions/v1'), { customFetch: fetchWithAuth });

  let storage: Promise<StorageClient> | null = null;
  return {
    auth,
    from: rest.from.bind(rest) as Rest['from'],
    rpc: rest.rpc.bind(rest) as Rest['rpc'],
    functions,
    storage() {
      storage ??= import('@supabase/storage-js').then(
        ({ StorageClient: Storage }) => new Storage(endpoint('storage/v1'), {}, fetchWithAuth),
        (error: unknown) => {
          storage = null; // offline before the chunk was cached: try again next time
          throw error;
        },
      );
      return storage;
    },
  };
}
