/**
 * auth.users rows and their JSON as GoTrue returns it (models.User: identities, factors,
 * app_metadata with the provider list). Admin status is a server-side fact (public.admins, kept
 * from ADMIN_EMAILS by the migrations' triggers) and shows as `app_metadata.role = 'admin'`.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database';

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  invited_at: string | null;
  confirmation_token: string | null;
  confirmation_sent_at: string | null;
  recovery_token: string | null;
  recovery_sent_at: string | null;
  email_change_token_new: string | null;
  email_change: string | null;
  email_change_sent_at: string | null;
  email_change_token_current: string | null;
  email_change_confirm_status: number | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  phone: string | null;
  confirmed_at: string | null;
  banned_until: string | null;
  is_anonymous: boolean;
  is_admin: boolean;
}

const USER_COLUMNS = `u.id, u.aud, u.role, u.email, u.encrypted_password, u.email_confirmed_at,
  u.invited_at, u.confirmation_token, u.confirmation_sent_at, u.recovery_token, u.recovery_sent_at,
  u.email_change_token_new, u.email_change, u.email_change_sent_at, u.email_change_token_current,
  u.email_change_confirm_status, u.last_sign_in_at,
  u.raw_app_meta_data, u.raw_user_meta_data, u.created_at, u.updated_at, u.phone, u.confirmed_at,
  u.banned_until, u.is_anonymous,
  exists (select 1 from public.admins a where a.user_id = u.id) as is_admin`;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Postgres text timestamps ('2026-01-02 03:04:05.123456+00') as RFC 3339 ('…T…Z'). */
export function iso(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const d = new Date(value.includes('T') ? value : value.replace(' ', 'T').replace(/\+00$/, 'Z'));
  if (Number.isNaN(d.getTime())) return value;
  const frac = /\.(\d+)/.exec(value)?.[1] ?? '';
  return `${d.toISOString().slice(0, 19)}${frac ? `.${frac}` : ''}Z`;
}

async function one(q: Queryable, where: string, params: unknown[]): Promise<UserRow | null> {
  const { rows } = await q.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users u where ${where} and u.deleted_at is null limit 1`,
    params,
  );
  return rows[0] ?? null;
}

export const findUserById = (q: Queryable, id: string) =>
  /^[0-9a-f-]{36}$/i.test(id) ? one(q, 'u.id = $1', [id]) : Promise.resolve(null);
export const findUserByEmail = (q: Queryable, email: string) =>
  one(q, 'lower(u.email) = $1 and u.is_sso_user = false', [normalizeEmail(email)]);
export const findUserByColumn = (
  q: Queryable,
  column:
    | 'confirmation_token'
    | 'recovery_token'
    | 'email_change_token_new'
    | 'email_change_token_current',
  value: string,
) => one(q, `u.${column} = $1`, [value]);

export function isBanned(user: UserRow): boolean {
  return user.banned_until !== null && new Date(iso(user.banned_until) ?? 0) > new Date();
}

/** app_metadata as tokens and responses carry it: admin decided on the server. */
export function appMetadata(user: UserRow): Record<string, unknown> {
  const meta: Record<string, unknown> = { ...(user.raw_app_meta_data ?? {}) };
  if (user.is_admin) meta.role = 'admin';
  else if (meta.role === 'admin') delete meta.role;
  return meta;
}

export interface NewUser {
  email: string;
  passwordHash: string | null;
  userMetadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  provider: string;
  confirmed: boolean;
  invited?: boolean;
  role?: string;
}

/** Inserts the user (the migrations' trigger creates the profile) and its e-mail identity. */
export async function insertUser(tx: Queryable, input: NewUser): Promise<string> {
  const id = randomUUID();
  const email = normalizeEmail(input.email);
  const app = { provider: input.provider, providers: [input.provider], ...input.appMetadata };
  await tx.query(
    `insert into auth.users (id, instance_id, aud, role, email, encrypted_password,
       email_confirmed_at, invited_at, raw_app_meta_data, raw_user_meta_data, is_sso_user,
       is_anonymous, created_at, updated_at)
     values ($1, '00000000-0000-0000-0000-000000000000', 'authenticated', $2, $3, $4,
       case when $5 then now() end, case when $6 then now() end, $7, $8, false, false, now(), now())`,
    [
      id,
      input.role ?? 'authenticated',
      email,
      input.passwordHash ?? '',
      input.confirmed,
      input.invited ?? false,
      JSON.stringify(app),
      JSON.stringify(input.userMetadata ?? {}),
    ],
  );
  if (input.provider === 'email') {
    await tx.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at)
       values ($1::text, $1::uuid, $2, 'email', now())`,
      [id, JSON.stringify({ sub: id, email, email_verified: false, phone_verified: false })],
    );
  }
  return id;
}

/** Adds `provider` to app_metadata.providers (GoTrue keeps the list of linked providers). */
export async function addProvider(tx: Queryable, userId: string, provider: string): Promise<void> {
  await tx.query(
    `update auth.users set raw_app_meta_data = jsonb_set(
       coalesce(raw_app_meta_data, '{}'), '{providers}',
       (select coalesce(jsonb_agg(distinct p), '[]') from jsonb_array_elements_text(
          coalesce(raw_app_meta_data -> 'providers', '[]') || to_jsonb($2::text)) p)),
       updated_at = now()
     where id = $1`,
    [userId, provider],
  );
}

/** The spec's rule: a user without a profile gets a free-plan one on login. */
export async function ensureProfile(q: Queryable, user: UserRow): Promise<void> {
  const meta = user.raw_user_meta_data ?? {};
  const pick = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const name =
    pick(meta.name) ?? pick(meta.full_name) ?? pick(user.email?.split('@')[0]) ?? 'Music Lover';
  await q.query(
    `insert into public.profiles (id, name, email, avatar_url) values ($1, $2, $3, $4)
     on conflict (id) do nothing`,
    [user.id, name.slice(0, 100), user.email, pick(meta.avatar_url)],
  );
}

interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
  email: string | null;
}

export async function listIdentities(q: Queryable, userId: string) {
  const { rows } = await q.query<IdentityRow>(
    `select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at,
            updated_at, email
     from auth.identities where user_id = $1 order by created_at`,
    [userId],
  );
  return rows.map((r) => ({
    identity_id: r.id,
    id: r.provider_id,
    user_id: r.user_id,
    identity_data: r.identity_data,
    provider: r.provider,
    last_sign_in_at: iso(r.last_sign_in_at),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    email: r.email,
  }));
}

/** GoTrue's user JSON (omitempty fields left out when unset). */
export async function userJson(q: Queryable, user: UserRow): Promise<Record<string, unknown>> {
  const { rows: factors } = await q.query<Record<string, string>>(
    `select id, friendly_name, factor_type, status, created_at, updated_at, last_challenged_at
     from auth.mfa_factors where user_id = $1 order by created_at`,
    [user.id],
  );
  const out: Record<string, unknown> = {
    id: user.id,
    aud: user.aud ?? 'authenticated',
    role: user.role ?? 'authenticated',
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at) ?? undefined,
    phone: user.phone ?? '',
    confirmation_sent_at: iso(user.confirmation_sent_at) ?? undefined,
    confirmed_at: iso(user.confirmed_at) ?? undefined,
    recovery_sent_at: iso(user.recovery_sent_at) ?? undefined,
    new_email: user.email_change || undefined,
    email_change_sent_at: iso(user.email_change_sent_at) ?? undefined,
    invited_at: iso(user.invited_at) ?? undefined,
    last_sign_in_at: iso(user.last_sign_in_at) ?? undefined,
    app_metadata: appMetadata(user),
    user_metadata: user.raw_user_meta_data ?? {},
    identities: await listIdentities(q, user.id),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: isBanned(user) ? iso(user.banned_until) : undefined,
    is_anonymous: user.is_anonymous,
  };
  if (factors.length > 0) {
    out.factors = factors.map((f) => ({
      id: f.id,
      friendly_name: f.friendly_name ?? '',
      factor_type: f.factor_type,
      status: f.status,
      created_at: iso(f.created_at),
      updated_at: iso(f.updated_at),
      last_challenged_at: iso(f.last_challenged_at) ?? undefined,
    }));
  }
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}
