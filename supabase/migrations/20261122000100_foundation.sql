-- Foundation: extensions, timestamp triggers, business constants, and who is an admin.

create schema if not exists extensions;
create extension if not exists pg_trgm with schema extensions;

-- created_at / updated_at belong to the server's clock: whatever a client sends is replaced.
create or replace function public.handle_timestamps() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.created_at := now();
  else
    new.created_at := old.created_at;
  end if;
  new.updated_at := now();
  return new;
end
$$;

-- For tables with created_at only.
create or replace function public.handle_created_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.created_at := now();
  else
    new.created_at := old.created_at;
  end if;
  return new;
end
$$;

-- Keys never change. PostgREST's upsert (on conflict do update) sets every column it was sent,
-- keys included, so key columns carry an update grant; this trigger makes that grant harmless.
-- Arguments: the key column names.
create or replace function public.keep_keys() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  key text;
begin
  foreach key in array tg_argv loop
    if (to_jsonb(new) -> key) is distinct from (to_jsonb(old) -> key) then
      raise exception '% cannot be changed', key using errcode = '42501';
    end if;
  end loop;
  return new;
end
$$;

-- Business constants of the server-side rules, each defined once here. play_rate_eur and
-- minimum_withdrawal_eur must equal PAYOUT in src/lib/constants.ts (a test compares them).
create or replace function public.play_rate_eur() returns numeric
language sql immutable parallel safe
set search_path = ''
as $$ select 0.0021::numeric $$;

create or replace function public.minimum_withdrawal_eur() returns numeric
language sql immutable parallel safe
set search_path = ''
as $$ select 5.00::numeric $$;

-- At most this many counted plays per listener and track per UTC day (DECISIONS.md: play rule).
create or replace function public.max_counted_plays_per_day() returns integer
language sql immutable parallel safe
set search_path = ''
as $$ select 10 $$;

-- ---------------------------------------------------------------------------------------------
-- Admins. The configured admin e-mail addresses (ADMIN_EMAILS, synced by the server at start
-- with public.sync_admin_emails; on hosted Supabase insert them with SQL) make every user with
-- that CONFIRMED e-mail address an admin. public.admins is maintained from both sides.
create table public.admin_emails (
  email text primary key check (email = lower(btrim(email)) and email <> ''),
  created_at timestamptz not null default now()
);
alter table public.admin_emails enable row level security;
revoke all on public.admin_emails from anon, authenticated;

create table public.admins (
  user_id uuid primary key references auth.users (id) on delete cascade,
  created_at timestamptz not null default now()
);
alter table public.admins enable row level security;
revoke all on public.admins from anon, authenticated;
grant select on public.admins to authenticated;

create or replace function public.is_admin() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.admins a where a.user_id = auth.uid())
$$;
revoke execute on function public.is_admin() from public;
grant execute on function public.is_admin() to anon, authenticated, service_role;

create policy "admins: a user sees their own row, admins see all"
  on public.admins for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));

-- Recomputes admins for one user, or for everybody when p_user_id is null.
create or replace function public.refresh_admins(p_user_id uuid default null) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.admins a
  where (p_user_id is null or a.user_id = p_user_id)
    and not exists (
      select 1 from auth.users u join public.admin_emails e on e.email = lower(u.email)
      where u.id = a.user_id and u.email_confirmed_at is not null
    );
  insert into public.admins (user_id)
  select u.id from auth.users u join public.admin_emails e on e.email = lower(u.email)
  where u.email_confirmed_at is not null and (p_user_id is null or u.id = p_user_id)
  on conflict (user_id) do nothing;
end
$$;
revoke execute on function public.refresh_admins(uuid) from public, anon, authenticated;

-- Replaces the configured admin e-mail list (the server calls it at start with ADMIN_EMAILS).
create or replace function public.sync_admin_emails(emails text[]) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  wanted text[] := array(
    select distinct lower(btrim(e)) from unnest(coalesce(emails, '{}')) as e where btrim(e) <> ''
  );
begin
  delete from public.admin_emails where email <> all (wanted);
  insert into public.admin_emails (email) select unnest(wanted) on conflict (email) do nothing;
  perform public.refresh_admins(null);
end
$$;
revoke execute on function public.sync_admin_emails(text[]) from public, anon, authenticated;
grant execute on function public.sync_admin_emails(text[]) to service_role;

create or replace function public.on_auth_user_admin_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.refresh_admins(new.id);
  return null;
end
$$;

create trigger on_auth_user_admin_change
  after insert or update of email, email_confirmed_at on auth.users
  for each row execute function public.on_auth_user_admin_change();
