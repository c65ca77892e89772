-- The second factor enforced in PostgreSQL (issue 32, docs/account.md § "Two-factor in the
-- database"), the way Supabase documents it ("Enforce MFA for users who have it enabled"): a user
-- with a verified factor whose JWT says aal1 (signed in with the password, code not answered yet)
-- reaches nothing through REST, storage, functions or realtime; the same user at aal2 does; a
-- user without a factor is unaffected. And ADMIN_REQUIRE_MFA: admins without a second factor
-- lose their admin powers (is_admin()) while it is on. Plain SQL over GoTrue's auth.mfa_factors
-- and the JWT's `aal` claim: the same on hosted Supabase.
--
-- Where it is enforced:
-- - every RLS table of public and storage.objects already carries the restrictive policy
--   `(select public.is_active_account())` (20261129170000, and every table added since:
--   tests/security/sanctions.test.ts fails for one without it). is_active_account() now also
--   asks mfa_satisfied(): one initplan per statement, as before, and a table added later by
--   anyone gets the rule with the policy it must have anyway;
-- - realtime.messages (private channels) gets the same restrictive policy;
-- - security definer functions (past RLS): refuse_sanctioned_caller() refuses an owed second
--   factor for every function that calls it; end_my_session, my_sessions and request_withdrawal
--   call it now too; use_mfa_recovery_code is the one that must run at aal1 (it answers the
--   challenge) and asks refuse_sanctioned_caller('second_factor') (ban only);
-- - admin functions and policies go through is_admin(), which needs the second factor too.
-- GoTrue's own endpoints (/factors/*/challenge, /verify, /logout, /user) do not go through RLS:
-- the aal1 session can always finish or cancel its sign-in.

-- These three run once per statement of every API request (the restrictive policies' initplan),
-- so they are PL/pgSQL: its plans are cached for the session, where a SQL function that cannot
-- be inlined (security definer) is planned again at every call. Measured on PostgreSQL 15 under
-- load (docs/account.md): about 50 µs per is_active_account() call instead of about 200 before
-- this migration (SQL) and 360 as SQL with the second-factor check.

-- Which restriction applies to a user now: 'ban', 'suspension' or null (as 20261129170000).
create or replace function public.account_restriction(p_user uuid) returns text
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  return (select s.kind from public.account_sanctions s
          where s.user_id = p_user and s.lifted_at is null and s.kind in ('ban', 'suspension')
            and s.starts_at <= now() and (s.ends_at is null or s.ends_at > now())
          order by s.kind = 'ban' desc
          limit 1);
end
$$;

-- The caller has passed the second factor if their account has one. Anon and the service role
-- (no auth.uid()) pass; so does an aal2 JWT, and a user without a verified factor.
create or replace function public.mfa_satisfied() returns boolean
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  return uid is null
    or coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2'
    or not exists (select 1 from auth.mfa_factors f where f.user_id = uid and f.status = 'verified');
end
$$;
revoke execute on function public.mfa_satisfied() from public;
grant execute on function public.mfa_satisfied() to anon, authenticated, service_role;

-- The caller may use the API at all: not banned, and not owing their second factor.
create or replace function public.is_active_account() returns boolean
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  return uid is null
    or (public.account_restriction(uid) is distinct from 'ban' and public.mfa_satisfied());
end
$$;

create policy "messages: not for banned accounts or an owed second factor" on realtime.messages
  as restrictive for all to authenticated
  using ((select public.is_active_account())) with check ((select public.is_active_account()));

-- Raises when the caller (auth.uid()) may not do p_need: 'listen', 'edit' (as before) or
-- 'second_factor' (answering the sign-in's second factor: only a ban refuses it). An owed
-- second factor refuses 'listen' and 'edit'. Anon and the service role pass.
create or replace function public.refuse_sanctioned_caller(p_need text) returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if auth.uid() is not null and public.account_restriction(auth.uid()) = 'ban' then
    raise exception 'Your account is banned.' using errcode = '42501';
  end if;
  if p_need is distinct from 'second_factor' and not public.mfa_satisfied() then
    raise exception 'Enter the code from your authenticator app first.' using errcode = '42501';
  end if;
  if p_need = 'edit' and not public.may_contribute() then
    raise exception 'Your account is suspended: editing is paused.' using errcode = '42501';
  end if;
end
$$;

-- The recovery code answers the second factor: it must run at aal1.
do $$
declare
  def text := pg_get_functiondef('public.use_mfa_recovery_code(text)'::regprocedure);
begin
  if position('refuse_sanctioned_caller(''listen'')' in def) = 0 then
    raise exception 'use_mfa_recovery_code no longer calls refuse_sanctioned_caller(''listen'')';
  end if;
  execute replace(def, 'refuse_sanctioned_caller(''listen'')',
                  'refuse_sanctioned_caller(''second_factor'')');
end
$$;

-- Definer functions that act for the caller without the check yet (as 20261129180000 did).
do $$
declare
  g regprocedure;
  def text;
  at integer;
begin
  foreach g in array array[
    'public.end_my_session(uuid)'::regprocedure,
    'public.request_withdrawal(numeric, text, text)'::regprocedure
  ]
  loop
    def := pg_get_functiondef(g);
    at := position('$function$' in def);
    at := at + regexp_instr(substr(def, at), '\mbegin\M') + 3;
    if at <= 4 then
      raise exception '% has no begin', g;
    end if;
    def := substr(def, 1, at)
      || E'\n  perform public.refuse_sanctioned_caller(''listen'');'
      || substr(def, at + 1);
    execute def;
  end loop;
end
$$;

-- The caller's devices: none listed before the second factor (a password alone shows nothing).
do $$
declare
  def text := pg_get_functiondef('public.my_sessions()'::regprocedure);
  only_own constant text := 'where s.user_id = auth.uid()';
begin
  if position(only_own in def) = 0 then
    raise exception 'my_sessions no longer selects %', only_own;
  end if;
  execute replace(def, only_own, only_own || ' and (select public.is_active_account())');
end
$$;

-- ADMIN_REQUIRE_MFA, kept in the database so that every node (and hosted Supabase, where it is
-- set with SQL) decides the same. The server writes it at start from its environment
-- (server/db/admins.ts, syncAdminRequireMfa). One row; no API role reads or writes it.
create table public.security_settings (
  id boolean primary key default true check (id),
  admin_require_mfa boolean not null default false,
  updated_at timestamptz not null default now()
);
insert into public.security_settings default values;
alter table public.security_settings enable row level security;
revoke all on public.security_settings from public, anon, authenticated;
create policy "security_settings: not for banned accounts" on public.security_settings
  as restrictive for all to authenticated
  using ((select public.is_active_account())) with check ((select public.is_active_account()));

-- Whether the caller's admin powers are usable, and if not why: null (not an admin), 'ok',
-- 'set_up_two_factor' (ADMIN_REQUIRE_MFA is on and the admin has no verified factor) or
-- 'confirm_two_factor' (a factor, but this session has not answered it: aal1). The admin pages
-- ask it to tell the admin what to do; is_admin() is the rule itself.
create or replace function public.admin_access() returns text
language sql stable
security definer
set search_path = ''
as $$
  select case
    when not exists (select 1 from public.admins a where a.user_id = auth.uid()) then null
    when coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2'
         and exists (select 1 from auth.mfa_factors f
                     where f.user_id = auth.uid() and f.status = 'verified') then 'ok'
    when exists (select 1 from auth.mfa_factors f
                 where f.user_id = auth.uid() and f.status = 'verified') then 'confirm_two_factor'
    when coalesce((select s.admin_require_mfa from public.security_settings s), false)
      then 'set_up_two_factor'
    else 'ok'
  end
$$;
revoke execute on function public.admin_access() from public, anon;
grant execute on function public.admin_access() to authenticated;

-- Admin powers: an admin row, and the second factor when the account has one or when
-- ADMIN_REQUIRE_MFA is on. Every admin policy and admin function asks this.
create or replace function public.is_admin() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select public.admin_access() is not distinct from 'ok'
$$;
