/**
 * The one Supabase client of the app (CONVENTIONS: the Supabase SDK is imported only in
 * src/data/remote/). Loaded on demand, so public pages never download it.
 */
import { loadBackendConfig } from './config';
import type { SoundloftClient } from './lean-client';

export type { SoundloftClient } from './lean-client';

/** Key of the session in localStorage. */
export const AUTH_STORAGE_KEY = 'soundloft-auth';

let client: Promise<SoundloftClient> | null = null;

export function getSupabase(): Promise<SoundloftClient> {
  client ??= (async () => {
    const [{ createLeanClient }, config] = await Promise.all([
      import('./lean-client'),
      loadBackendConfig(),
    ]);
    return createLeanClient({
      url: config.url,
      anonKey: config.anonKey,
      auth: {
        storageKey: AUTH_STORAGE_KEY,
        persistSession: true,
        // Refreshes near expiry (30 s tick, 3 ticks ahead) and when the tab becomes visible.
        autoRefreshToken: true,
        // Recovery links and Google return with the session in the URL. A signup confirmation
        // link does too, but spec 4 wants the user to log in after confirming: it is not used.
        detectSessionInUrl: (_url, params) => params.type !== 'signup',
        flowType: 'implicit',
      },
    });
  })().catch((error: unknown) => {
    client = null;
    throw error;
  });
  return client;
}

/**
 * The signed-in user's id, from the local session (no request); null when signed out. A read of
 * a table that an admin may read whole ("the owner or an admin reads" policies: subscriptions,
 * data_exports, account_deletions, …) must filter on it: RLS alone means "mine" only for users
 * who are not admins.
 */
export async function sessionUserId(client: SoundloftClient): Promise<string | null> {
  const { data } = await client.auth.getSession();
  return data.session?.user.id ?? null;
}
