-- Account security (issue 32, docs/account.md): two-factor recovery codes and the list of the
-- caller's signed-in devices. Both work the same on hosted Supabase (plain SQL over GoTrue's
-- auth.sessions and auth.mfa_factors, called with supabase-js's rpc()).

-- Recovery codes: ten per user, shown once, stored as sha256 hex (each code has 64 random bits,
-- so a fast hash is enough, as GoTrue's sha224 of its tokens). Never readable through the API.
create table public.mfa_recovery_codes (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  code_hash text not null,
  created_at timestamptz not null default now(),
  used_at timestamptz
);
create index mfa_recovery_codes_user_idx on public.mfa_recovery_codes (user_id);
alter table public.mfa_recovery_codes enable row level security;
revoke all on public.mfa_recovery_codes from public, anon, authenticated;
create policy "mfa_recovery_codes: not for banned accounts" on public.mfa_recovery_codes
  as restrictive for all to authenticated
  using ((select public.is_active_account())) with check ((select public.is_active_account()));

-- Wrong recovery codes, for the limit (5 per user per 15 minutes), kept in the database so that
-- every node counts the same.
create table public.mfa_recovery_failures (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  at timestamptz not null default now()
);
create index mfa_recovery_failures_user_at_idx on public.mfa_recovery_failures (user_id, at);
alter table public.mfa_recovery_failures enable row level security;
revoke all on public.mfa_recovery_failures from public, anon, authenticated;
create policy "mfa_recovery_failures: not for banned accounts" on public.mfa_recovery_failures
  as restrictive for all to authenticated
  using ((select public.is_active_account())) with check ((select public.is_active_account()));

-- New recovery codes for the caller (the old ones stop working). Needs an aal2 session: only
-- someone who just passed the second factor may mint a way around it.
create or replace function public.create_mfa_recovery_codes() returns setof text
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  raw text;
  code text;
begin
  perform public.refuse_sanctioned_caller('listen');
  if uid is null then
    raise exception 'Sign in first.' using errcode = '42501';
  end if;
  if coalesce(auth.jwt() ->> 'aal', 'aal1') <> 'aal2' then
    raise exception 'Confirm a two-factor code first.' using errcode = '42501';
  end if;
  if not exists (select 1 from auth.mfa_factors f where f.user_id = uid and f.status = 'verified') then
    raise exception 'Turn on two-factor sign-in first.' using errcode = '42501';
  end if;
  delete from public.mfa_recovery_codes where user_id = uid;
  for i in 1..10 loop
    raw := encode(extensions.gen_random_bytes(8), 'hex');
    code := substr(raw, 1, 4) || '-' || substr(raw, 5, 4) || '-' || substr(raw, 9, 4) || '-'
      || substr(raw, 13, 4);
    insert into public.mfa_recovery_codes (user_id, code_hash)
      values (uid, encode(extensions.digest(raw, 'sha256'), 'hex'));
    return next code;
  end loop;
end
$$;
revoke execute on function public.create_mfa_recovery_codes() from public, anon;
grant execute on function public.create_mfa_recovery_codes() to authenticated;

-- How many unused recovery codes the caller has.
create or replace function public.mfa_recovery_codes_left() returns integer
language sql stable security definer
set search_path = ''
as $$
  select count(*)::integer from public.mfa_recovery_codes
  where user_id = auth.uid() and used_at is null
$$;
revoke execute on function public.mfa_recovery_codes_left() from public, anon;
grant execute on function public.mfa_recovery_codes_left() to authenticated;

-- Signs in with a recovery code instead of the second factor: the caller has passed the first
-- (an aal1 session). A right code is spent and turns two-factor sign-in off (every factor and
-- code removed), so the aal1 session is all the account needs; the person then enrols again.
-- GoTrue has no recovery codes and only it can raise a session to aal2, hence this shape.
-- Wrong codes: 5 per 15 minutes per user (a per-user advisory lock orders concurrent calls).
create or replace function public.use_mfa_recovery_code(p_code text) returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  normalised text := lower(regexp_replace(coalesce(p_code, ''), '[\s-]', '', 'g'));
  spent bigint;
begin
  perform public.refuse_sanctioned_caller('listen');
  if uid is null then
    raise exception 'Sign in first.' using errcode = '42501';
  end if;
  if normalised !~ '^[0-9a-f]{16}$' or length(p_code) > 64 then
    raise exception 'Enter a recovery code like 1a2b-3c4d-5e6f-7a8b.' using errcode = '22023';
  end if;
  perform pg_advisory_xact_lock(hashtext('mfa_recovery:' || uid::text));
  if (select count(*) from public.mfa_recovery_failures
      where user_id = uid and at > now() - interval '15 minutes') >= 5 then
    raise exception 'Too many wrong recovery codes. Try again in 15 minutes.'
      using errcode = 'P0001';
  end if;
  update public.mfa_recovery_codes set used_at = now()
    where user_id = uid and used_at is null
      and code_hash = encode(extensions.digest(normalised, 'sha256'), 'hex')
    returning id into spent;
  if spent is null then
    insert into public.mfa_recovery_failures (user_id) values (uid);
    return false;
  end if;
  delete from auth.mfa_factors where user_id = uid;
  delete from public.mfa_recovery_codes where user_id = uid;
  delete from public.mfa_recovery_failures where user_id = uid;
  return true;
end
$$;
revoke execute on function public.use_mfa_recovery_code(text) from public, anon;
grant execute on function public.use_mfa_recovery_code(text) to authenticated;

-- The caller's signed-in devices. The address is cut to its network (/24, /48): the page shows
-- roughly where, and nothing more leaves the table than the privacy policy's "IP address,
-- browser type and time of access".
create or replace function public.my_sessions()
returns table (
  id uuid,
  user_agent text,
  network text,
  created_at timestamptz,
  last_active_at timestamptz,
  two_factor boolean,
  current boolean
)
language sql stable security definer
set search_path = ''
as $$
  select s.id, s.user_agent,
    case when s.ip is null then null
         else host(network(set_masklen(s.ip, case when family(s.ip) = 4 then 24 else 48 end)))
    end,
    s.created_at,
    greatest(s.updated_at, s.created_at),
    s.aal = 'aal2',
    s.id::text = (auth.jwt() ->> 'session_id')
  from auth.sessions s
  where s.user_id = auth.uid() and (s.not_after is null or s.not_after > now())
  order by s.id::text = (auth.jwt() ->> 'session_id') desc, greatest(s.updated_at, s.created_at) desc
$$;
revoke execute on function public.my_sessions() from public, anon;
grant execute on function public.my_sessions() to authenticated;

-- Signs one of the caller's other devices out (its refresh tokens go with the session; its access
-- token is refused by /auth/v1/user at once and its realtime sockets are closed, docs/account.md).
create or replace function public.end_my_session(p_session uuid) returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'Sign in first.' using errcode = '42501';
  end if;
  if p_session is null then
    raise exception 'Which session?' using errcode = '22023';
  end if;
  delete from auth.sessions where id = p_session and user_id = auth.uid();
  return found;
end
$$;
revoke execute on function public.end_my_session(uuid) from public, anon;
grant execute on function public.end_my_session(uuid) to authenticated;
