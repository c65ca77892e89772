/**
 * A client for a given backend and access token source: tests and benchmarks drive the sync
 * engine with it (the app uses getSupabase()). `fetch` lets tests inject faults.
 */
import { createLeanClient, type SoundloftClient } from './lean-client';

export interface ClientOptions {
  url: string;
  anonKey: string;
  /** The user's access token, read before every request. */
  accessToken: () => Promise<string | null>;
  fetch?: typeof fetch;
}

export function createTokenClient(options: ClientOptions): SoundloftClient {
  return createLeanClient(options);
}
