/** supabase-js clients against a target, and accounts with a password (through the admin API). */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { expect } from 'vitest';
import type { Target } from './target';

export const PASSWORD = 'correct horse battery staple';

export const clientOptions = {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: WebSocket as never },
};

export const anonClient = (t: Target): SupabaseClient =>
  createClient(t.url, t.keys.anonKey, clientOptions);

/** A client with a ready-made access token (the world's users have no password). */
export const tokenClient = (t: Target, token: string): SupabaseClient =>
  createClient(t.url, t.keys.anonKey, {
    ...clientOptions,
    global: { headers: { Authorization: `Bearer ${token}` } },
  });

let made = 0;
/** A confirmed account with PASSWORD, made through the admin API: its id and address. */
export async function passwordAccount(
  t: Target,
  prefix: string,
): Promise<{ id: string; email: string }> {
  const email = `${prefix}-${++made}-${Date.now()}@security.test`;
  const service = createClient(t.url, t.keys.serviceRoleKey, clientOptions);
  const { data, error } = await service.auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  expect(error).toBeNull();
  return { id: data.user!.id, email };
}

/** A fresh client signed in with the password (an aal1 session). */
export async function signedIn(t: Target, email: string): Promise<SupabaseClient> {
  const client = anonClient(t);
  const { error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  expect(error).toBeNull();
  return client;
}
