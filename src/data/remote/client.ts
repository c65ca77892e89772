/**
 * The one supabase-js client of the app (CONVENTIONS: supabase-js is imported only here).
 * Loaded on demand, so public pages never download it.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { loadBackendConfig } from './config';
import type { Database } from './database.types';

export type SoundloftClient = SupabaseClient<Database>;

/** Key of the session in localStorage. */
export const AUTH_STORAGE_KEY = 'soundloft-auth';

let client: Promise<SoundloftClient> | null = null;

export function getSupabase(): Promise<SoundloftClient> {
  client ??= (async () => {
    const [{ createClient }, config] = await Promise.all([
      import('@supabase/supabase-js'),
      loadBackendConfig(),
    ]);
    return createClient<Database>(config.url, config.anonKey, {
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
