/**
 * A supabase-js client for a given backend and access token source: tests and benchmarks drive
 * the sync engine with it (the app uses getSupabase()). `fetch` lets tests inject faults.
 */
import { createClient } from '@supabase/supabase-js';
import type { Database } from './database.types';
import type { SoundloftClient } from './client';

export interface ClientOptions {
  url: string;
  anonKey: string;
  /** The user's access token, read before every request. */
  accessToken: () => Promise<string | null>;
  fetch?: typeof fetch;
}

export function createTokenClient(options: ClientOptions): SoundloftClient {
  return createClient<Database>(options.url, options.anonKey, {
    accessToken: options.accessToken,
    global: options.fetch ? { fetch: options.fetch } : {},
    auth: { persistSession: false, autoRefreshToken: false },
  });
}
