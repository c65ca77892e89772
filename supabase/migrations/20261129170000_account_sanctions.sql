-- Account sanctions (issue 31, spec §4 'Moderation ladder'): a warning with content removal, a
-- suspension of 7–30 days chosen by the admin, a permanent ban. Enforced here, in Postgres; the
-- rules, their sources and what is still to build are in docs/trust-and-safety.md.
--
-- - Only admins create or lift a sanction (admin_sanction_user / admin_lift_sanction check
--   is_admin(); API roles have no write grant on the table). Each one is in admin_audit_log.
-- - A sanction applies while starts_at <= now() < ends_at (ends_at null: until lifted) and it
--   is not lifted: it ends by itself, computed at check time, no cron.
-- - Suspended: may sign in and listen; may not upload (tracks insert, storage writes into the
--   tracks and covers buckets, TUS goes through the same storage policy), edit (tracks, playlists,
--   profile updates; playlist creation) or withdraw (request_withdrawal). Likes, follows,
--   history and plays are listening and stay allowed; deleting one's own content stays allowed.
-- - Banned: auth.users.banned_until is set (the auth server refuses every grant with GoTrue's
--   user_banned), its sessions and refresh tokens are deleted, and every REST/storage request
--   with a still-valid access token finds nothing and may write nothing (restrictive policies on
--   every RLS table of public and on storage.objects), its tracks are taken down (restored on
--   lift), its pending withdrawals held for review and its balance frozen (no withdrawal).

create table public.account_sanctions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null check (kind in ('warning', 'suspension', 'ban')),
  reason text not null check (char_length(btrim(reason)) between 1 and 2000),
  starts_at timestamptz not null default now(),
  ends_at timestamptz,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  lifted_at timestamptz,
  lifted_by uuid references auth.users (id) on delete set null,
  lift_reason text check (char_length(lift_reason) <= 2000),
  constraint account_sanctions_suspension_ends check ((kind = 'suspension') = (ends_at is not null))
);
create index account_sanctions_user_idx on public.account_sanctions (user_id, kind) where lifted_at is null;

alter table public.account_sanctions enable row level security;
revoke all on public.account_sanctions from anon, authenticated;
grant select on public.account_sanctions to authenticated;
create policy "account_sanctions: the user sees their own, admins all" on public.account_sanctions
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));

-- Which restriction applies to a user now: 'ban', 'suspension' or null.
create or replace function public.account_restriction(p_user uuid) returns text
language sql stable
security definer
set search_path = ''
as $$
  select s.kind from public.account_sanctions s
  where s.user_id = p_user and s.lifted_at is null and s.kind in ('ban', 'suspension')
    and s.starts_at <= now() and (s.ends_at is null or s.ends_at > now())
  order by s.kind = 'ban' desc
  limit 1
$$;
revoke execute on function public.account_restriction(uuid) from public, anon, authenticated;

-- The caller may use the API at all (anon and the service role: yes; a banned user: no).
create or replace function public.is_active_account() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select auth.uid() is null or public.account_restriction(auth.uid()) is null
    or public.account_restriction(auth.uid()) <> 'ban'
$$;
revoke execute on function public.is_active_account() from public;
grant execute on function public.is_active_account() to anon, authenticated, service_role;

-- The caller may upload, edit and withdraw (not suspended, not banned).
create or replace function public.may_contribute() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select auth.uid() is null or public.account_restriction(auth.uid()) is null
$$;
revoke execute on function public.may_contribute() from public;
grant execute on function public.may_contribute() to anon, authenticated, service_role;

-- Public: until when an account is suspended (null when it is not), for its public pages.
create or replace function public.suspended_until(p_user uuid) returns timestamptz
language sql stable
security definer
set search_path = ''
as $$
  select max(s.ends_at) from public.account_sanctions s
  where s.user_id = p_user and s.kind = 'suspension' and s.lifted_at is null
    and s.starts_at <= now() and s.ends_at > now()
$$;
revoke execute on function public.suspended_until(uuid) from public;
grant execute on function public.suspended_until(uuid) to anon, authenticated, service_role;

-- Tracks hidden by a ban carry the sanction, so that lifting it restores exactly those.
alter table public.tracks
  add column hidden_by_sanction uuid references public.account_sanctions (id) on delete set null;
-- Withdrawals held for review (a ban holds the pending ones).
alter table public.withdrawals add column held_for_review text check (char_length(held_for_review) <= 200);

create or replace function public.admin_sanction_user(
  p_user uuid, p_kind text, p_reason text, p_days integer default null, p_track_ids uuid[] default '{}'
) returns public.account_sanctions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.account_sanctions;
begin
  if not public.is_admin() then
    raise exception 'Only admins can sanction accounts.' using errcode = '42501';
  end if;
  if p_user is null or not exists (select 1 from auth.users u where u.id = p_user) then
    raise exception 'No such user.' using errcode = 'P0001';
  end if;
  if p_user = auth.uid() then
    raise exception 'Admins cannot sanction themselves.' using errcode = 'P0001';
  end if;
  if p_kind is null or p_kind not in ('warning', 'suspension', 'ban') then
    raise exception 'Choose a warning, a suspension or a ban.' using errcode = 'P0001';
  end if;
  if coalesce(char_length(btrim(p_reason)), 0) not between 1 and 2000 then
    raise exception 'Give the reason (up to 2000 characters).' using errcode = 'P0001';
  end if;
  if p_kind = 'suspension' and (p_days is null or p_days not between 7 and 30) then
    raise exception 'A suspension lasts 7 to 30 days.' using errcode = 'P0001';
  end if;
  if p_kind <> 'suspension' and p_days is not null then
    raise exception 'Only a suspension has a duration.' using errcode = 'P0001';
  end if;
  if p_kind <> 'warning' and coalesce(cardinality(p_track_ids), 0) > 0 then
    raise exception 'Content is removed with a warning.' using errcode = 'P0001';
  end if;
  insert into public.account_sanctions (user_id, kind, reason, ends_at, created_by)
  values (p_user, p_kind, btrim(p_reason),
          case when p_kind = 'suspension' then now() + make_interval(days => p_days) end, auth.uid())
  returning * into v_row;
  if p_kind = 'warning' and coalesce(cardinality(p_track_ids), 0) > 0 then
    if exists (select 1 from unnest(p_track_ids) i
               where not exists (select 1 from public.tracks t where t.id = i and t.uploaded_by = p_user)) then
      raise exception 'Only tracks of that user can be removed.' using errcode = 'P0001';
    end if;
    update public.tracks t set taken_down_at = now(), takedown_reason = btrim(p_reason)
    where t.id = any (p_track_ids) and t.taken_down_at is null;
  elsif p_kind = 'ban' then
    -- GoTrue's permanent ban is a ban_duration of 876000h (100 years).
    update auth.users u set banned_until = now() + interval '876000 hours' where u.id = p_user;
    delete from auth.sessions s where s.user_id = p_user;
    delete from auth.refresh_tokens r where r.user_id = p_user::text;
    update public.tracks t set taken_down_at = now(), takedown_reason = 'Account banned.',
                               hidden_by_sanction = v_row.id
    where t.uploaded_by = p_user and t.taken_down_at is null;
    update public.withdrawals w set held_for_review = 'Account banned.'
    where w.user_id = p_user and w.status = 'pending' and w.held_for_review is null;
    -- Every node's realtime server listens (docs/trust-and-safety.md): it closes the sockets.
    perform pg_notify('soundloft_account_banned', p_user::text);
  end if;
  perform public.audit_admin_action('account.' || p_kind, 'account_sanctions', v_row.id::text,
    null, to_jsonb(v_row) || jsonb_build_object('track_ids', to_jsonb(coalesce(p_track_ids, '{}'))));
  return v_row;
end
$$;
revoke execute on function public.admin_sanction_user(uuid, text, text, integer, uuid[]) from public, anon;
grant execute on function public.admin_sanction_user(uuid, text, text, integer, uuid[]) to authenticated;

create or replace function public.admin_lift_sanction(p_sanction uuid, p_reason text)
returns public.account_sanctions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_before public.account_sanctions;
  v_row public.account_sanctions;
begin
  if not public.is_admin() then
    raise exception 'Only admins can lift sanctions.' using errcode = '42501';
  end if;
  if coalesce(char_length(btrim(p_reason)), 0) not between 1 and 2000 then
    raise exception 'Give the reason (up to 2000 characters).' using errcode = 'P0001';
  end if;
  select * into v_before from public.account_sanctions s where s.id = p_sanction for update;
  if not found then
    raise exception 'No such sanction.' using errcode = 'P0001';
  end if;
  if v_before.lifted_at is not null then
    raise exception 'This sanction was already lifted.' using errcode = 'P0001';
  end if;
  update public.account_sanctions s
     set lifted_at = now(), lifted_by = auth.uid(), lift_reason = btrim(p_reason)
   where s.id = p_sanction
  returning * into v_row;
  if v_row.kind = 'ban' and public.account_restriction(v_row.user_id) is distinct from 'ban' then
    update auth.users u set banned_until = null where u.id = v_row.user_id;
    update public.tracks t set taken_down_at = null, takedown_reason = null, hidden_by_sanction = null
    where t.hidden_by_sanction = v_row.id;
    update public.withdrawals w set held_for_review = null
    where w.user_id = v_row.user_id and w.status = 'pending' and w.held_for_review = 'Account banned.';
  end if;
  perform public.audit_admin_action('account.lift_' || v_row.kind, 'account_sanctions',
    v_row.id::text, to_jsonb(v_before), to_jsonb(v_row));
  return v_row;
end
$$;
revoke execute on function public.admin_lift_sanction(uuid, text) from public, anon;
grant execute on function public.admin_lift_sanction(uuid, text) to authenticated;

-- A held withdrawal is not processed until an admin clears the hold (lifting the ban).
create or replace function public.withdrawal_not_held() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.held_for_review is not null and new.held_for_review is not null
     and new.status is distinct from old.status then
    raise exception 'This withdrawal is held for review.' using errcode = 'P0001';
  end if;
  return new;
end
$$;
revoke execute on function public.withdrawal_not_held() from public, anon, authenticated;
create trigger withdrawals_not_held before update of status on public.withdrawals
  for each row execute function public.withdrawal_not_held();

-- Banned: nothing through RLS, on every table of public that has it, and on storage.objects.
do $$
declare
  r record;
begin
  for r in select c.relname from pg_class c
           where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
             and c.relrowsecurity
  loop
    execute format(
      'create policy %I on public.%I as restrictive for all to authenticated '
      'using ((select public.is_active_account())) with check ((select public.is_active_account()))',
      r.relname || ': not for banned accounts', r.relname);
  end loop;
end
$$;
create policy "objects: not for banned accounts" on storage.objects
  as restrictive for all to authenticated
  using ((select public.is_active_account())) with check ((select public.is_active_account()));

-- Suspended: no upload, no edit.
create policy "tracks: suspended accounts do not upload" on public.tracks
  as restrictive for insert to authenticated with check ((select public.may_contribute()));
create policy "tracks: suspended accounts do not edit" on public.tracks
  as restrictive for update to authenticated using ((select public.may_contribute()));
create policy "playlists: suspended accounts do not create" on public.playlists
  as restrictive for insert to authenticated with check ((select public.may_contribute()));
create policy "playlists: suspended accounts do not edit" on public.playlists
  as restrictive for update to authenticated using ((select public.may_contribute()));
create policy "profiles: suspended accounts do not edit" on public.profiles
  as restrictive for update to authenticated using ((select public.may_contribute()));
create policy "objects: suspended accounts do not upload tracks, covers or avatars" on storage.objects
  as restrictive for insert to authenticated
  with check (bucket_id not in ('tracks', 'covers', 'avatars') or (select public.may_contribute()));
create policy "objects: suspended accounts do not replace tracks, covers or avatars" on storage.objects
  as restrictive for update to authenticated
  using (bucket_id not in ('tracks', 'covers', 'avatars') or (select public.may_contribute()));

-- Suspended or banned: no withdrawal (request_withdrawal inserts as its owner, past RLS).
create or replace function public.withdrawals_refuse_sanctioned() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if public.account_restriction(new.user_id) is not null then
    raise exception 'Your account is suspended: withdrawals are paused.' using errcode = 'P0001';
  end if;
  return new;
end
$$;
revoke execute on function public.withdrawals_refuse_sanctioned() from public, anon, authenticated;
create trigger withdrawals_refuse_sanctioned before insert on public.withdrawals
  for each row execute function public.withdrawals_refuse_sanctioned();

-- A suspended uploader is told why before any other check (before triggers run by name; the
-- upload-limit trigger would otherwise fail first: its profile lock obeys the update policy).
create or replace function public.tracks_refuse_suspended() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if auth.uid() is not null and public.account_restriction(auth.uid()) is not null then
    raise exception 'Your account is suspended: uploads are paused.' using errcode = '42501';
  end if;
  return new;
end
$$;
revoke execute on function public.tracks_refuse_suspended() from public, anon, authenticated;
create trigger tracks_aa_refuse_suspended before insert on public.tracks
  for each row execute function public.tracks_refuse_suspended();
