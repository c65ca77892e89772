-- What a hosted Supabase project already has before its migrations run, for the embedded server
-- (PGlite) and for a plain PostgreSQL: API roles, the auth and storage schemas and their helper
-- functions, and Supabase's default grants. Idempotent: runs on every start.
-- Never applied to a hosted Supabase project (it has all of this already).

-- Roles. anon and authenticated are subject to RLS; service_role bypasses it. The server's
-- connection switches to one of them per request: select set_config('role', $1, true).
do $$
declare
  r record;
begin
  for r in select * from (values
      ('anon', false), ('authenticated', false), ('service_role', true), ('authenticator', false)
    ) as t(name, bypass)
  loop
    if not exists (select 1 from pg_catalog.pg_roles where rolname = r.name) then
      begin
        if r.bypass then
          execute format('create role %I nologin noinherit bypassrls', r.name);
        else
          execute format('create role %I nologin noinherit', r.name);
        end if;
      exception when duplicate_object or unique_violation then
        null; -- created meanwhile by a concurrent bootstrap of another database in the cluster
      end;
    end if;
  end loop;
end
$$;

-- authenticator (PostgREST's login role on Supabase) may become any API role. A connecting user
-- that is not a superuser needs the same memberships to run set_config('role', ...).
do $$
begin
  if not pg_catalog.pg_has_role('authenticator', 'anon', 'member') then
    grant anon, authenticated, service_role to authenticator;
  end if;
  if not (select rolsuper from pg_catalog.pg_roles where rolname = current_user)
     and not pg_catalog.pg_has_role(current_user, 'authenticator', 'member') then
    execute format('grant authenticator, anon, authenticated, service_role to %I', current_user);
  end if;
end
$$;

create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;
grant usage on schema extensions to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- auth: the GoTrue schema (the columns the embedded auth server and the migrations use).
create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key default gen_random_uuid(),
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  phone text unique default null,
  phone_confirmed_at timestamptz,
  phone_change text default '',
  phone_change_token varchar(255) default '',
  phone_change_sent_at timestamptz,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current varchar(255) default '',
  email_change_confirm_status smallint default 0 check (email_change_confirm_status between 0 and 2),
  banned_until timestamptz,
  reauthentication_token varchar(255) default '',
  reauthentication_sent_at timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
create index if not exists users_instance_id_idx on auth.users (instance_id);
create unique index if not exists users_email_partial_key on auth.users (email) where is_sso_user = false;
comment on table auth.users is 'Auth: Stores user login data within a secure schema.';

-- GoTrue's identities (one per sign-in provider), sessions and refresh tokens.
create table if not exists auth.identities (
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid primary key default gen_random_uuid(),
  constraint identities_provider_id_provider_unique unique (provider_id, provider)
);
create index if not exists identities_user_id_idx on auth.identities (user_id);
create index if not exists identities_email_idx on auth.identities (email text_pattern_ops);

do $$
begin
  if not exists (select 1 from pg_catalog.pg_type t join pg_catalog.pg_namespace n on n.oid = t.typnamespace
                 where n.nspname = 'auth' and t.typname = 'aal_level') then
    create type auth.aal_level as enum ('aal1', 'aal2', 'aal3');
  end if;
end
$$;

create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  factor_id uuid,
  aal auth.aal_level,
  not_after timestamptz,
  refreshed_at timestamp,
  user_agent text,
  ip inet,
  tag text
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);
create index if not exists sessions_not_after_idx on auth.sessions (not_after desc);
-- Not GoTrue's: a session that ends (sign-out of any scope, a password change, an ended device)
-- is announced, so that every realtime node closes the sockets that joined with it
-- (server/realtime/sessions.ts; the payload is the user id, checked against this table).
create or replace function auth.announce_session_end() returns trigger
language plpgsql
as $$
begin
  perform pg_notify('soundloft_session_ended', old.user_id::text);
  return old;
end
$$;
drop trigger if exists announce_session_end on auth.sessions;
create trigger announce_session_end after delete on auth.sessions
  for each row execute function auth.announce_session_end();

create table if not exists auth.refresh_tokens (
  instance_id uuid,
  id bigserial primary key,
  token varchar(255) unique,
  user_id varchar(255),
  revoked boolean,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  parent varchar(255),
  session_id uuid references auth.sessions (id) on delete cascade
);
create index if not exists refresh_tokens_instance_id_user_id_idx on auth.refresh_tokens (instance_id, user_id);
create index if not exists refresh_tokens_parent_idx on auth.refresh_tokens (parent);
create index if not exists refresh_tokens_session_id_revoked_idx on auth.refresh_tokens (session_id, revoked);
create index if not exists refresh_tokens_updated_at_idx on auth.refresh_tokens (updated_at desc);

-- What the embedded auth server (server/auth) keeps besides users, identities, sessions and
-- refresh tokens, with GoTrue's table and column names: PKCE flow state, MFA factors, challenges
-- and the authentication methods of each session (the JWT's amr).
-- (GoTrue declares factor_type, factor_status and code_challenge_method as enums; text with a
-- check here.)
create table if not exists auth.flow_state (
  id uuid primary key,
  user_id uuid,
  auth_code text not null,
  code_challenge_method text not null check (code_challenge_method in ('s256', 'plain')),
  code_challenge text not null,
  provider_type text not null,
  provider_access_token text,
  provider_refresh_token text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  authentication_method text not null,
  auth_code_issued_at timestamptz
);
create index if not exists idx_auth_code on auth.flow_state (auth_code);
create index if not exists flow_state_created_at_idx on auth.flow_state (created_at desc);

create table if not exists auth.mfa_factors (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type text not null check (factor_type in ('totp', 'phone', 'webauthn')),
  status text not null check (status in ('unverified', 'verified')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  secret text,
  phone text,
  last_challenged_at timestamptz
);
-- Not GoTrue's: the last TOTP time step a factor accepted, so a code is refused the second time
-- (server/auth/mfa-routes.ts; one conditional update, so two nodes cannot both accept it).
alter table auth.mfa_factors add column if not exists last_totp_step bigint;
create unique index if not exists mfa_factors_user_friendly_name_unique
  on auth.mfa_factors (friendly_name, user_id) where btrim(friendly_name) <> '';
create index if not exists factor_id_created_at_idx on auth.mfa_factors (user_id, created_at);

create table if not exists auth.mfa_challenges (
  id uuid primary key,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null default now(),
  verified_at timestamptz,
  ip_address inet
);
create index if not exists mfa_challenge_created_at_idx on auth.mfa_challenges (created_at desc);

create table if not exists auth.mfa_amr_claims (
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  authentication_method text not null,
  id uuid primary key default gen_random_uuid(),
  constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method)
);

-- Exactly as Supabase defines them: the newer request.jwt.claims JSON first-class, the older
-- per-claim settings still honoured.
create or replace function auth.uid() returns uuid
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.email() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

grant execute on function auth.uid(), auth.role(), auth.email(), auth.jwt()
  to anon, authenticated, service_role;
grant all on all tables in schema auth to service_role;
grant all on all sequences in schema auth to service_role;

-- The auth server's rate limits (server/auth/rate-limit.ts), shared by every node on this
-- database: a limit of N per window holds across nodes. One row per key with the times of its
-- recent hits (a sliding window); unlogged (a crash forgets them, as a restart did before), and
-- rows whose window has passed are removed by the calls themselves. Only the server calls these
-- functions (execute is revoked from PUBLIC and the API roles).
create unlogged table if not exists auth.rate_limits (
  key text primary key,
  hits timestamptz[] not null default '{}',
  expires_at timestamptz not null
);
create index if not exists rate_limits_expires_at_idx on auth.rate_limits (expires_at);
revoke all on table auth.rate_limits from anon, authenticated;

-- Takes one hit for every key at once if none of them is used up, else none: returns 0 when taken,
-- otherwise the seconds until the fullest key frees a hit. Keys are locked in a fixed order (no
-- deadlock between two callers naming the same keys); 1 call in 100 also deletes expired rows.
create or replace function auth.rate_limit_take(p_keys text[], p_limits int[], p_window_ms int)
returns int
language plpgsql
set search_path = ''
as $$
declare
  win interval := make_interval(secs => p_window_ms / 1000.0);
  k record;
  recent timestamptz[];
  wait int := 0;
begin
  if random() < 0.01 then
    delete from auth.rate_limits where expires_at < now();
  end if;
  insert into auth.rate_limits (key, expires_at)
    select u, now() + win from unnest(p_keys) u order by u
  on conflict (key) do nothing;
  for k in
    select r.key, r.hits, l.lim from auth.rate_limits r
      join unnest(p_keys, p_limits) as l(key, lim) on l.key = r.key
     order by r.key for update of r
  loop
    recent := array(select h from unnest(k.hits) h where h > now() - win order by h);
    if cardinality(recent) >= k.lim then
      wait := greatest(wait, 1, ceil(extract(epoch from
        recent[cardinality(recent) - k.lim + 1] + win - now()))::int);
    end if;
  end loop;
  if wait > 0 then
    return wait;
  end if;
  update auth.rate_limits r
     set hits = array(select h from unnest(r.hits) h where h > now() - win order by h) || now(),
         expires_at = now() + win
   where r.key = any (p_keys);
  return 0;
end
$$;

-- Gives back the newest hit of a key (a request that took one and turned out not to count).
create or replace function auth.rate_limit_refund(p_key text) returns void
language sql
set search_path = ''
as $$
  update auth.rate_limits
     set hits = hits[1:greatest(cardinality(hits) - 1, 0)]
   where key = p_key;
$$;

-- Forgets a key (a right password resets the wrong-password count of its address).
create or replace function auth.rate_limit_reset(p_key text) returns void
language sql
set search_path = ''
as $$
  delete from auth.rate_limits where key = p_key;
$$;

revoke execute on function auth.rate_limit_take(text[], int[], int), auth.rate_limit_refund(text),
  auth.rate_limit_reset(text) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- storage: the Supabase Storage schema.
create schema if not exists storage;
grant usage on schema storage to anon, authenticated, service_role;

create table if not exists storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[]
);
create unique index if not exists bname on storage.buckets (name);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  user_metadata jsonb
);
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);
create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

create or replace function storage.foldername(name text) returns text[]
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1:array_length(_parts, 1) - 1];
end
$$;

create or replace function storage.filename(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;

create or replace function storage.extension(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;

grant all on storage.buckets, storage.objects to anon, authenticated, service_role;
grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text)
  to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- public: Supabase's grants. RLS, not table grants, is what keeps rows private; migrations revoke
-- what a role must never do (privileged columns, internal tables).
grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;

create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (
  version text primary key,
  statements text[],
  name text
);

-- ---------------------------------------------------------------------------------------------
-- Realtime: the publication every Supabase project has. Migrations add the tables whose changes
-- clients may subscribe to (`alter publication supabase_realtime add table ...`), exactly as on
-- hosted Supabase; the embedded Realtime (server/realtime) streams the tables listed in it.
do $$
begin
  if not exists (select 1 from pg_catalog.pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
exception when duplicate_object or unique_violation then
  null; -- created meanwhile by a concurrent bootstrap
end
$$;

-- Realtime's schema in a project's database (supabase/realtime, priv/repo/tenant_schema): the
-- `messages` table whose RLS policies authorise private channels, and `realtime.topic()`, the
-- topic a policy is asked about. A project's migrations write those policies
-- (`create policy ... on realtime.messages ... using (realtime.topic() = ...)`), exactly as on
-- hosted Supabase. The embedded Realtime (server/realtime/authorization.ts) checks them the way
-- Realtime does; rows are only ever inserted in a transaction that is rolled back. Hosted
-- Realtime partitions this table by day; the policies cannot tell.
create schema if not exists realtime;
grant usage on schema realtime to anon, authenticated, service_role;
create table if not exists realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp without time zone not null default now(),
  inserted_at timestamp without time zone not null default now(),
  id uuid not null default gen_random_uuid(),
  binary_payload bytea,
  constraint messages_payload_exclusive check (payload is null or binary_payload is null),
  primary key (id, inserted_at)
);
alter table realtime.messages enable row level security;
grant insert, select, update on table realtime.messages to anon, authenticated, service_role;
create or replace function realtime.topic() returns text
  language sql stable
as $$ select nullif(current_setting('realtime.topic', true), '')::text; $$;
grant execute on function realtime.topic() to anon, authenticated, service_role;
