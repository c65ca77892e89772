/**
 * Signed-in members for the security suite: confirmed users made through the auth server's admin
 * API with a password, and signed in with the official supabase-js client (so sign-in itself, and
 * its refusal, can be tested).
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { expect } from 'vitest';
import type { Target } from './target';

export const MEMBER_PASSWORD = 'correct horse battery staple';

export const clientOptions = {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: WebSocket as never },
};

export interface Member {
  id: string;
  email: string;
  client: SupabaseClient;
  accessToken: string;
  refreshToken: string;
}

let n = 0;

/** A confirmed user made through the admin API and signed in with their password. */
export async function signedInMember(t: Target, prefix: string): Promise<Member> {
  const email = `${prefix}-${++n}-${Date.now()}@security.test`;
  const service = createClient(t.url, t.keys.serviceRoleKey, clientOptions);
  const made = await service.auth.admin.createUser({
    email,
    password: MEMBER_PASSWORD,
    email_confirm: true,
  });
  expect(made.error).toBeNull();
  const client = createClient(t.url, t.keys.anonKey, clientOptions);
  const signed = await client.auth.signInWithPassword({ email, password: MEMBER_PASSWORD });
  expect(signed.error).toBeNull();
  const session = signed.data.session!;
  return {
    id: signed.data.user!.id,
    email,
    client,
    accessToken: session.access_token,
    refreshToken: session.refresh_token,
  };
}
