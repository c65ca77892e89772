/**
 * Two-factor sign-in enforced by PostgreSQL (docs/account.md, "Two-factor in the database"), with
 * the official supabase-js client against the whole server: an aal1 token of an account with a
 * verified TOTP factor (the password given, the code not yet) is refused by REST reads and
 * writes of each table family, storage, security definer functions, edge functions and a private
 * realtime join; the same account at aal2 passes, and so does an account without a factor at
 * aal1. Turning the factor off needs aal2, deleting the account accepts aal2 instead of the
 * password, and ADMIN_REQUIRE_MFA takes admin powers from an admin without the second factor.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, anonClient, passwordAccount, signedIn, tokenClient } from './support/clients';
import { startTarget, type Target } from './support/target';
import { buildWorld, type World } from './support/world';

let t: Target;
let w: World;
let n = 0;
const OWED = 'Enter the code from your authenticator app first.';
/** Private channels whose read policy lets every signed-in user in (made for this file). */
const ROOM_POLICY = 'second-factor test: signed-in users read aal-room-*';
const realtimeClients: SupabaseClient[] = [];

beforeAll(async () => {
  t = await startTarget();
  w = await buildWorld(t.db);
  await t.db.query(
    `create policy "${ROOM_POLICY}" on realtime.messages for select to authenticated
       using (realtime.topic() like 'aal-room-%')`,
  );
});
afterAll(async () => {
  await Promise.all(realtimeClients.map((c) => c.realtime.disconnect()));
  await t?.db.query(`drop policy if exists "${ROOM_POLICY}" on realtime.messages`);
  await t?.close();
});

const anon = () => anonClient(t);
const asToken = (token: string) => tokenClient(t, token);

interface Person {
  id: string;
  email: string;
  /** Signed in with the password only (aal1). */
  client: SupabaseClient;
}
async function person(): Promise<Person> {
  const { id, email } = await passwordAccount(t, 'second-factor');
  return { id, email, client: await signedIn(t, email) };
}
const aal = async (c: SupabaseClient) =>
  (await c.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel;
const accessToken = async (c: SupabaseClient) =>
  (await c.auth.getSession()).data.session!.access_token;

interface WithFactor extends Person {
  /** The same account after the code (aal2). */
  full: SupabaseClient;
  /** The same account signed in again with the password only, the code still owed. */
  half: SupabaseClient;
  factorId: string;
  totp: TOTP;
}
/**
 * An account with a verified TOTP factor. Each code is used once (a replayed one is refused), so
 * later verifications take the next time step's code (the server accepts ±1 step).
 */
async function withFactor(): Promise<WithFactor> {
  const p = await person();
  const { data: factor } = await p.client.auth.mfa.enroll({ factorType: 'totp' });
  if (factor?.type !== 'totp') throw new Error('expected a TOTP factor');
  const totp = new TOTP({ secret: factor.totp.secret });
  const verified = await p.client.auth.mfa.challengeAndVerify({
    factorId: factor.id,
    code: totp.generate(),
  });
  expect(verified.error).toBeNull();
  expect(await aal(p.client)).toBe('aal2');
  const half = await signedIn(t, p.email);
  expect(await aal(half)).toBe('aal1');
  expect((await half.auth.mfa.getAuthenticatorAssuranceLevel()).data?.nextLevel).toBe('aal2');
  return { ...p, full: p.client, half, factorId: factor.id, totp };
}
const nextCode = (totp: TOTP) => totp.generate({ timestamp: Date.now() + 30_000 });

const cover = () =>
  new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], {
    type: 'image/png',
  });

/** What one client may do through REST, storage and a definer function, in one object. */
async function attempts(c: SupabaseClient, id: string) {
  const playlist = await c.from('playlists').insert({ name: 'Mine', created_by: id }).select('id');
  return {
    profile: (await c.from('profiles').select('id').eq('id', id)).data,
    catalogue: (await c.from('tracks').select('id').eq('id', w.trackX)).data,
    publicPlaylist: (await c.from('playlists').select('id').eq('id', w.playlistO)).data,
    profileUpdate: (
      await c
        .from('profiles')
        .update({ bio: `bio ${++n}` })
        .eq('id', id)
        .select('id')
    ).data,
    like: (await c.from('liked_tracks').insert({ user_id: id, track_id: w.trackX }).select('id'))
      .error,
    history: (
      await c.from('listening_history').insert({ user_id: id, track_id: w.trackX }).select('id')
    ).error,
    playlist: playlist.error,
    follow: (await c.from('followers').insert({ follower_id: id, following_id: w.other.id })).error,
    storage: (await c.storage.from('covers').upload(`${id}/c-${Date.now()}-${n}.png`, cover()))
      .error,
    sessions: (await c.rpc('my_sessions')).data as unknown[] | null,
    addToPlaylist: playlist.data?.[0]
      ? (
          await c.rpc('add_track_to_playlist', {
            playlist_id: playlist.data[0].id,
            track_id: w.trackX,
          })
        ).error
      : 'no playlist',
  };
}

/** What attempts() answers to a caller who may do all of it. */
const everythingAllowed = (id: string) => ({
  profile: [{ id }],
  catalogue: [{ id: w.trackX }],
  publicPlaylist: [{ id: w.playlistO }],
  profileUpdate: [{ id }],
  like: null,
  history: null,
  playlist: null,
  follow: null,
  storage: null,
  addToPlaylist: null,
});

describe('an account with a verified factor', () => {
  it('at aal1 reaches nothing through REST, storage or definer functions; at aal2 all of it', async () => {
    const p = await withFactor();
    const refused = await attempts(p.half, p.id);
    expect(refused.profile).toEqual([]);
    expect(refused.catalogue, 'not even the public catalogue').toEqual([]);
    expect(refused.publicPlaylist).toEqual([]);
    expect(refused.profileUpdate).toEqual([]);
    for (const key of ['like', 'history', 'playlist', 'follow', 'storage'] as const)
      expect(refused[key], key).not.toBeNull();
    expect(refused.sessions).toEqual([]);
    // A definer function: its own refusal (the playlist insert was refused, so try the world's).
    const add = await p.half.rpc('add_track_to_playlist', {
      playlist_id: w.playlistO,
      track_id: w.trackX,
    });
    expect(add.error?.message).toBe(OWED);
    const end = await p.half.rpc('end_my_session', { p_session: crypto.randomUUID() });
    expect(end.error?.message).toBe(OWED);
    const { rows } = await t.db.query(
      `select 1 from public.liked_tracks where user_id = $1
       union all select 1 from public.playlists where created_by = $1
       union all select 1 from public.listening_history where user_id = $1
       union all select 1 from storage.objects where owner_id = $1::text`,
      [p.id],
    );
    expect(rows, 'nothing written at aal1').toEqual([]);

    const allowed = await attempts(p.full, p.id);
    expect(allowed).toMatchObject(everythingAllowed(p.id));
    expect(allowed.sessions).toHaveLength(2);

    // The aal1 session answers the code (GoTrue's challenge and verify) and then passes.
    expect(
      (await p.half.auth.mfa.challengeAndVerify({ factorId: p.factorId, code: nextCode(p.totp) }))
        .error,
    ).toBeNull();
    expect(await aal(p.half)).toBe('aal2');
    expect((await p.half.from('profiles').select('id').eq('id', p.id)).data).toEqual([
      { id: p.id },
    ]);
  });

  it('an account without a factor is not affected at aal1', async () => {
    const p = await person();
    expect(await aal(p.client)).toBe('aal1');
    expect(await attempts(p.client, p.id)).toMatchObject(everythingAllowed(p.id));
  });

  it('at aal1 is refused by edge functions; delete-account takes aal2 instead of the password', async () => {
    const p = await withFactor();
    for (const [name, body] of [
      ['delete-account', { password: PASSWORD }],
      ['request-withdrawal', { amount: 5, method: 'paypal', details: 'me@paypal.test' }],
      ['cancel-subscription', {}],
    ] as const) {
      const r = await p.half.functions.invoke(name, { body });
      expect(r.error, name).not.toBeNull();
      const res = (r.error as { context: Response }).context;
      expect(res.status, name).toBe(403);
      const answer = (await res.json()) as { error?: string; message?: string };
      expect(answer.error ?? answer.message, name).toMatch(/authenticator app first/);
    }
    const { rows: none } = await t.db.query(
      'select 1 from public.account_deletions where user_id = $1',
      [p.id],
    );
    expect(none, 'the password alone scheduled the deletion').toEqual([]);

    const ok = await p.full.functions.invoke('delete-account', { body: {} });
    expect(ok.error).toBeNull();
    expect(typeof (ok.data as { scheduledFor: string }).scheduledFor).toBe('string');
    const { rows } = await t.db.query('select 1 from public.account_deletions where user_id = $1', [
      p.id,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('at aal1 cannot join a private realtime channel; at aal2 it can', async () => {
    const p = await withFactor();
    const plain = await person();
    const join = async (token: string, room: string) => {
      const client = anon();
      realtimeClients.push(client);
      await client.realtime.setAuth(token);
      return new Promise<string>((resolve) =>
        client.channel(room, { config: { private: true } }).subscribe((status) => {
          if (status !== 'TIMED_OUT') resolve(status);
        }),
      );
    };
    expect(await join(await accessToken(p.half), `aal-room-${p.id}-a`)).toBe('CHANNEL_ERROR');
    expect(await join(await accessToken(p.full), `aal-room-${p.id}-b`)).toBe('SUBSCRIBED');
    expect(await join(await accessToken(plain.client), `aal-room-${plain.id}`)).toBe('SUBSCRIBED');
  });

  it('turning the factor off needs aal2 (checked by the server)', async () => {
    const p = await withFactor();
    const refused = await p.half.auth.mfa.unenroll({ factorId: p.factorId });
    expect(refused.error?.code).toBe('insufficient_aal');
    const { rows } = await t.db.query<{ status: string }>(
      'select status from auth.mfa_factors where id = $1',
      [p.factorId],
    );
    expect(rows).toEqual([{ status: 'verified' }]);
    expect((await p.full.auth.mfa.unenroll({ factorId: p.factorId })).error).toBeNull();
    // No factor left: the password-only session is all the account needs now.
    expect((await p.half.from('profiles').select('id').eq('id', p.id)).data).toEqual([
      { id: p.id },
    ]);
  });
});

describe('ADMIN_REQUIRE_MFA', () => {
  /** The world's admin with a token of the given assurance level. */
  const admin = (level?: 'aal1' | 'aal2') =>
    asToken(
      t.token({ ...w.admin, claims: { ...w.admin.claims, ...(level ? { aal: level } : {}) } }),
    );
  const setRequired = (on: boolean) =>
    t.db.query('update public.security_settings set admin_require_mfa = $1', [on]);
  const powers = async (c: SupabaseClient) => ({
    access: (await c.rpc('admin_access')).data as string | null,
    stats: (await c.rpc('admin_stats')).error === null,
    audit: (await c.from('admin_audit_log').select('id').limit(1)).error === null,
    isAdmin: (await c.rpc('is_admin')).data as boolean,
    ownProfile: (await c.from('profiles').select('id').eq('id', w.admin.id)).data,
  });

  it('off: an admin without a factor is an admin; on: only with the second factor', async () => {
    const factor = crypto.randomUUID();
    try {
      await setRequired(false);
      expect(await powers(admin())).toMatchObject({ access: 'ok', stats: true, isAdmin: true });

      await setRequired(true);
      // Not an admin any more, still a user: their own profile reads.
      expect(await powers(admin('aal1'))).toMatchObject({
        access: 'set_up_two_factor',
        stats: false,
        isAdmin: false,
        ownProfile: [{ id: w.admin.id }],
      });
      await t.db.query(
        `insert into auth.mfa_factors (id, user_id, factor_type, status, secret)
         values ($1, $2, 'totp', 'verified', 'JBSWY3DPEHPK3PXP')`,
        [factor, w.admin.id],
      );
      // A factor, but this session has not answered it: nothing at all, as for every user.
      expect(await powers(admin('aal1'))).toMatchObject({
        access: 'confirm_two_factor',
        stats: false,
        isAdmin: false,
        ownProfile: [],
      });
      expect(await powers(admin('aal2'))).toMatchObject({
        access: 'ok',
        stats: true,
        audit: true,
        isAdmin: true,
        ownProfile: [{ id: w.admin.id }],
      });
      // A non-admin is told nothing about admin access.
      expect((await asToken(t.token(w.owner)).rpc('admin_access')).data).toBeNull();
    } finally {
      await t.db.query('delete from auth.mfa_factors where id = $1', [factor]);
      await setRequired(false);
    }
  });
});

describe('coverage', () => {
  it('every definer function that writes for a user refuses an owed second factor', async () => {
    // Volatile security definer functions a signed-in user may call: each either asks
    // refuse_sanctioned_caller (ban, suspension, second factor) or is for admins (is_admin(),
    // copyright_need_admin_reason() asks it).
    const { rows } = await t.db.query<{ name: string }>(
      `select p.proname as name from pg_proc p
        where p.pronamespace = 'public'::regnamespace and p.prosecdef and p.provolatile = 'v'
          and p.prorettype <> 'trigger'::regtype
          and has_function_privilege('authenticated', p.oid, 'execute')
          and p.prosrc not like '%refuse_sanctioned_caller(%'
          and p.prosrc not like '%is_admin()%'
          and p.prosrc not like '%copyright_need_admin_reason(%'
        order by 1`,
    );
    // owns_audio_object: the storage policy's lookup of the caller's own upload (no write).
    // The mailed-link functions act for whoever the single-use token names, not for the
    // caller's session (a banned uploader uses them signed out): the token is their check (the
    // claimant's reading one is volatile: it counts the link's rate limit).
    expect(rows.map((r) => r.name)).toEqual([
      'action_link_open',
      'copyright_claimant_legal_action_info',
      'copyright_counter_notify_by_link',
      'file_appeal_by_link',
      'owns_audio_object',
    ]);
  });

  it('realtime.messages carries the restrictive policy every table has', async () => {
    const { rows } = await t.db.query(
      `select 1 from pg_policy p where p.polrelid = 'realtime.messages'::regclass
          and not p.polpermissive and pg_get_expr(p.polqual, p.polrelid) like '%is_active_account()%'`,
    );
    expect(rows).toHaveLength(1);
  });
});
