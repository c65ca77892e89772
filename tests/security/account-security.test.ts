/**
 * Account security (docs/account.md) against the whole server, through supabase-js: the signed-in
 * devices list and ending one (its refresh token refused, /user refused, its realtime socket
 * closed, another session's left open), sign-out of the others, and recovery codes (aal2 to mint
 * them, shown once and hashed at rest, a wrong one limited, a right one spent and two-factor off).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { anonClient, passwordAccount, signedIn } from './support/clients';
import { startTarget, type Target } from './support/target';

let t: Target;
const realtimeClients: SupabaseClient[] = [];

beforeAll(async () => {
  t = await startTarget();
});
afterAll(async () => {
  await Promise.all(realtimeClients.map((c) => c.realtime.disconnect()));
  await t?.close();
});

const anon = () => anonClient(t);
const account = async () => (await passwordAccount(t, 'account')).email;
const signIn = (email: string) => signedIn(t, email);
const session = async (c: SupabaseClient) => (await c.auth.getSession()).data.session!;

function subscribed(client: SupabaseClient, topic: string) {
  return new Promise<string>((resolve) =>
    client.channel(topic).subscribe((status) => {
      if (status !== 'TIMED_OUT') resolve(status);
    }),
  );
}
async function realtimeAs(token: string) {
  const client = anon();
  realtimeClients.push(client);
  await client.realtime.setAuth(token);
  const closes: number[] = [];
  client.realtime.stateChangeCallbacks.close.push([
    'test',
    (event: CloseEvent) => closes.push(event.code),
  ]);
  return { client, closes };
}

describe('signed-in devices', () => {
  it('lists only the caller’s sessions, the current one first, with a cut address', async () => {
    const email = await account();
    const a = await signIn(email);
    await signIn(email);
    const stranger = await signIn(await account());
    const { data, error } = await a.rpc('my_sessions');
    expect(error).toBeNull();
    expect(data).toHaveLength(2);
    expect(data[0]).toMatchObject({ current: true, two_factor: false });
    expect(data[1]).toMatchObject({ current: false });
    for (const row of data as { network: string | null }[])
      expect(row.network === null || /\.0$|::$|:0$/.test(row.network)).toBe(true);
    expect((await stranger.rpc('my_sessions')).data).toHaveLength(1);
    expect((await anon().rpc('my_sessions')).error).not.toBeNull();
  });

  it('gives the place (country) of the caller’s own sessions only', async () => {
    const email = await account();
    const a = await signIn(email);
    const stranger = await signIn(await account());
    const uid = async (c: SupabaseClient) => (await session(c)).user.id;
    // The auth server writes it from the address it sees (server/auth/auth-sessions.test.ts);
    // here every request comes from loopback, so the rows are arranged.
    await t.db.query(`update auth.sessions set country = 'NL' where user_id = $1`, [await uid(a)]);
    await t.db.query(`update auth.sessions set country = 'DE' where user_id = $1`, [
      await uid(stranger),
    ]);
    const mine = (await a.rpc('my_sessions')).data as { country: string | null }[];
    const theirs = (await stranger.rpc('my_sessions')).data as { country: string | null }[];
    expect(mine.map((r) => r.country)).toEqual(['NL']);
    expect(theirs.map((r) => r.country)).toEqual(['DE']);
    // Signed in from loopback, a new session has no place.
    await signIn(email);
    const both = (await a.rpc('my_sessions')).data as { country: string | null }[];
    expect(both.map((r) => r.country).sort()).toEqual(['NL', null]);
  });

  it('ending one device: its refresh token, /user and realtime socket stop; others go on', async () => {
    const email = await account();
    const me = await signIn(email);
    const lost = await signIn(email);
    const kept = await signIn(email);
    const lostSession = await session(lost);
    const lostSocket = await realtimeAs(lostSession.access_token);
    const keptSocket = await realtimeAs((await session(kept)).access_token);
    expect(await subscribed(lostSocket.client, 'room-lost')).toBe('SUBSCRIBED');
    expect(await subscribed(keptSocket.client, 'room-kept')).toBe('SUBSCRIBED');

    const { data: rows } = await me.rpc('my_sessions');
    const lostId = JSON.parse(
      Buffer.from(lostSession.access_token.split('.')[1]!, 'base64url').toString(),
    ).session_id as string;
    expect((rows as { id: string }[]).map((r) => r.id)).toContain(lostId);
    // Someone else's session id ends nothing.
    const stranger = await signIn(await account());
    expect((await stranger.rpc('end_my_session', { p_session: lostId })).data).toBe(false);
    expect((await me.rpc('end_my_session', { p_session: lostId })).data).toBe(true);

    await vi.waitFor(() => expect(lostSocket.closes).toContain(4001), {
      timeout: 30_000,
      interval: 100,
    });
    expect(keptSocket.closes).toEqual([]);
    expect((await lost.auth.getUser()).error?.name).toBe('AuthSessionMissingError');
    const refreshed = await anon().auth.refreshSession({
      refresh_token: lostSession.refresh_token,
    });
    expect(refreshed.error).not.toBeNull();
    expect((await kept.auth.getUser()).error).toBeNull();
  });

  it('signOut({ scope: "others" }) closes the other sessions’ sockets, not this one’s', async () => {
    const email = await account();
    const me = await signIn(email);
    const other = await signIn(email);
    const mine = await realtimeAs((await session(me)).access_token);
    const theirs = await realtimeAs((await session(other)).access_token);
    expect(await subscribed(mine.client, 'room-mine')).toBe('SUBSCRIBED');
    expect(await subscribed(theirs.client, 'room-theirs')).toBe('SUBSCRIBED');
    expect((await me.auth.signOut({ scope: 'others' })).error).toBeNull();
    await vi.waitFor(() => expect(theirs.closes).toContain(4001), {
      timeout: 30_000,
      interval: 100,
    });
    expect(mine.closes).toEqual([]);
    expect((await me.rpc('my_sessions')).data).toHaveLength(1);
  });
});

describe('recovery codes', () => {
  async function withFactor() {
    const email = await account();
    const client = await signIn(email);
    const { data: factor } = await client.auth.mfa.enroll({ factorType: 'totp' });
    if (factor?.type !== 'totp') throw new Error('expected a TOTP factor');
    const totp = new TOTP({ secret: factor.totp.secret });
    return { email, client, factorId: factor.id, totp };
  }

  it('needs aal2 to mint; ten codes, stored hashed; one signs in once and turns two-factor off', async () => {
    const { email, client, factorId, totp } = await withFactor();
    expect((await client.rpc('create_mfa_recovery_codes')).error?.message).toBe(
      'Confirm a two-factor code first.',
    );
    expect(
      (await client.auth.mfa.challengeAndVerify({ factorId, code: totp.generate() })).error,
    ).toBeNull();
    const { data: codes, error } = await client.rpc('create_mfa_recovery_codes');
    expect(error).toBeNull();
    expect(codes).toHaveLength(10);
    expect(new Set(codes as string[]).size).toBe(10);
    for (const code of codes as string[]) expect(code).toMatch(/^[0-9a-f]{4}(-[0-9a-f]{4}){3}$/);
    const { rows } = await t.db.query<{ code_hash: string }>(
      `select code_hash from public.mfa_recovery_codes r join auth.users u on u.id = r.user_id
       where u.email = $1`,
      [email],
    );
    expect(rows).toHaveLength(10);
    const plain = new Set((codes as string[]).map((c) => c.replaceAll('-', '')));
    for (const r of rows) {
      expect(r.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(plain.has(r.code_hash)).toBe(false);
    }
    expect((await client.rpc('mfa_recovery_codes_left')).data).toBe(10);

    // A new sign-in is aal1 and must pass the second factor; the recovery code does it.
    const next = await signIn(email);
    expect((await next.auth.mfa.getAuthenticatorAssuranceLevel()).data?.nextLevel).toBe('aal2');
    expect((await next.rpc('use_mfa_recovery_code', { p_code: 'not a code' })).error?.message).toBe(
      'Enter a recovery code like 1a2b-3c4d-5e6f-7a8b.',
    );
    const first = (codes as string[])[0]!;
    expect((await next.rpc('use_mfa_recovery_code', { p_code: first.toUpperCase() })).data).toBe(
      true,
    );
    await next.auth.refreshSession();
    expect((await next.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: 'aal1',
      nextLevel: 'aal1',
    });
    // Spent: the codes are gone with the factor.
    expect((await next.rpc('use_mfa_recovery_code', { p_code: first })).data).toBe(false);
  });

  it('limits wrong codes to 5 per 15 minutes per account', async () => {
    const { email, client, factorId, totp } = await withFactor();
    await client.auth.mfa.challengeAndVerify({ factorId, code: totp.generate() });
    const { data: codes } = await client.rpc('create_mfa_recovery_codes');
    const guesser = await signIn(email);
    for (let i = 0; i < 5; i++)
      expect(
        (await guesser.rpc('use_mfa_recovery_code', { p_code: `0000-0000-0000-000${i}` })).data,
      ).toBe(false);
    const limited = await guesser.rpc('use_mfa_recovery_code', { p_code: (codes as string[])[0] });
    expect(limited.error?.message).toBe('Too many wrong recovery codes. Try again in 15 minutes.');
    expect((await client.rpc('mfa_recovery_codes_left')).data).toBe(10);
  });
});
