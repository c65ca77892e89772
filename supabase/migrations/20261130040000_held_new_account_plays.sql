-- A new account's plays are held, not refused (issue 34; docs/plays.md 'Held plays').
--
-- Until now a listen by an account younger than new_account_age() or with an unconfirmed e-mail
-- was refused for good ('new_account'): a real listener's first hour was lost to its artists.
-- Now such a listen is *held* (play_events.held, neither counted nor refused) and a job releases
-- it once the account is an hour old with a confirmed e-mail: the daily caps of the day it was
-- played are applied then (counted, else refused 'daily_track_limit' / 'daily_listener_limit'),
-- and a counted release credits the artist then (tracks.plays + 1, a 'play' ledger entry).
-- A held listen is refused for good ('new_account') only when its account is banned first (at
-- the ban, by the trigger below, and by the job for a ban set through GoTrue's admin API); a
-- deleted account's listens go with it (play_events cascade on the profile).
--
-- The job (release_held_plays) is safe on several nodes: it claims held rows `for update skip
-- locked`, and takes the listener's plays lock and the track row only if they are free
-- (pg_try_advisory_xact_lock, `for update skip locked`): it never waits on a lock an online or
-- offline play holds, so it cannot deadlock with one (they lock the track, then the listener);
-- a row it skips is released by a later pass. Each row leaves `held` in the transaction that
-- credits it, so a release happens once.

alter table public.play_events add column held boolean not null default false;
alter table public.play_events drop constraint play_events_counted_or_refused;
-- Exactly one of: counted (no refusal), held (no refusal), refused (a reason).
alter table public.play_events
  add constraint play_events_counted_held_or_refused
  check (counted = (refusal is null and not held) and not (held and refusal is not null));
create index play_events_held_idx on public.play_events (played_at, id) where held;

-- The listens refused 'new_account' before this migration are held now: the job counts those of
-- accounts that have since passed the hour with a confirmed e-mail (within the caps of their day).
update public.play_events set held = true, refusal = null where refusal = 'new_account';

-- ---------------------------------------------------------------------------------------------
-- The daily caps alone (the part of play_bound_refusal that also applies at release).
-- Call with the track row locked (the counts are then exact for this track).
create or replace function public.play_cap_refusal(p_listener uuid, p_track uuid, p_at timestamptz)
returns text
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_day_start timestamptz := date_trunc('day', p_at at time zone 'utc') at time zone 'utc';
begin
  if (select count(*) from public.play_events e
       where e.listener_id = p_listener and e.track_id = p_track and e.counted
         and e.played_at >= v_day_start and e.played_at < v_day_start + interval '1 day')
     >= public.max_counted_plays_per_day() then
    return 'daily_track_limit';
  end if;
  -- Per listener: concurrent calls for other tracks may race past this by a play or two; the
  -- per-track bound above is exact.
  perform pg_advisory_xact_lock(hashtext('plays:' || p_listener::text));
  if (select count(*) from public.play_events e
       where e.listener_id = p_listener and e.counted
         and e.played_at >= v_day_start and e.played_at < v_day_start + interval '1 day')
     >= public.max_counted_plays_per_listener_day() then
    return 'daily_listener_limit';
  end if;
  return null;
end
$$;
revoke execute on function public.play_cap_refusal(uuid, uuid, timestamptz) from public, anon, authenticated;

-- Whether p_listener's account had passed the new-account bound at p_at.
create or replace function public.account_established(p_listener uuid, p_at timestamptz)
returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from auth.users u
     where u.id = p_listener and u.email_confirmed_at is not null
       and u.created_at <= p_at - public.new_account_age())
$$;
revoke execute on function public.account_established(uuid, timestamptz) from public, anon, authenticated;

-- The bounds at judging time: 'new_account' (the listen is then held: record_judged_play), else
-- the caps.
create or replace function public.play_bound_refusal(p_listener uuid, p_track uuid, p_at timestamptz)
returns text
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  if not public.account_established(p_listener, p_at) then
    return 'new_account';
  end if;
  return public.play_cap_refusal(p_listener, p_track, p_at);
end
$$;
revoke execute on function public.play_bound_refusal(uuid, uuid, timestamptz) from public, anon, authenticated;

-- Records one judged listen; counts it (plays + 1, the uploader credited) when not refused, and
-- holds it (neither) when refused 'new_account': release_held_plays decides it later.
-- History is written for listens the server has evidence of (refused by a bound or counted).
create or replace function public.record_judged_play(
  p_listener uuid, p_track uuid, p_uploader uuid, p_session text, p_at timestamptz,
  p_refusal text, p_offline boolean, p_device text, p_served real, p_history boolean
) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_event uuid;
  v_held boolean := p_refusal is not distinct from 'new_account';
  v_refusal text := case when p_refusal is not distinct from 'new_account' then null else p_refusal end;
begin
  insert into public.play_events
    (listener_id, track_id, session_id, played_at, counted, refusal, held, offline, device_id,
     served_seconds)
  values (p_listener, p_track, p_session, p_at, v_refusal is null and not v_held, v_refusal, v_held,
          p_offline, nullif(left(btrim(p_device), 200), ''), p_served)
  on conflict on constraint play_events_once_per_session do nothing
  returning id into v_event;
  if v_event is null then
    return null; -- this call was made before (a retry): nothing new
  end if;
  if p_history then
    insert into public.listening_history (user_id, track_id, listened_at)
    values (p_listener, p_track, p_at);
  end if;
  if v_refusal is null and not v_held then
    update public.tracks t set plays = t.plays + 1 where t.id = p_track;
    perform public.post_ledger_entry(p_uploader, public.play_rate_eur(), 'play',
                                     p_track, p_listener, null);
  end if;
  return v_event;
end
$$;
revoke execute on function public.record_judged_play(uuid, uuid, uuid, text, timestamptz, text, boolean, text, real, boolean)
  from public, anon, authenticated;

-- Whether an account is banned now (a sanction, or GoTrue's banned_until).
create or replace function public.account_banned(p_user uuid) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select public.account_restriction(p_user) is not distinct from 'ban'
      or exists (select 1 from auth.users u where u.id = p_user and u.banned_until > now())
$$;
revoke execute on function public.account_banned(uuid) from public, anon, authenticated;

-- The release job (server/plays/held-plays.ts runs it on every node with jobs, every minute):
-- decides up to p_limit held listens, oldest first. A listen of a banned account (or one whose
-- auth user is gone) is refused 'new_account'; one of an account now an hour old with a confirmed
-- e-mail is counted within the caps of the day it was played (the artist credited now), or
-- refused by a cap; any other stays held. Returns how many listens it decided.
create or replace function public.release_held_plays(p_limit integer default 500) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row record;
  v_refusal text;
  v_uploader uuid;
  v_done integer := 0;
begin
  perform public.require_argument(p_limit between 1 and 10000, 'p_limit must be 1 to 10000.');
  for v_row in
    select e.id, e.listener_id, e.track_id, e.played_at
      from public.play_events e
     where e.held
       and (public.account_banned(e.listener_id)
            or public.account_established(e.listener_id, now())
            or not exists (select 1 from auth.users u where u.id = e.listener_id))
     order by e.played_at, e.id
     limit p_limit
     for update of e skip locked
  loop
    if public.account_banned(v_row.listener_id)
       or not exists (select 1 from auth.users u where u.id = v_row.listener_id) then
      update public.play_events e set held = false, refusal = 'new_account' where e.id = v_row.id;
      v_done := v_done + 1;
      continue;
    end if;
    -- The caps' counts are exact under the listener's plays lock and the track row lock; both
    -- only if free (a play in progress holds them): else a later pass.
    if not pg_try_advisory_xact_lock(hashtext('plays:' || v_row.listener_id::text)) then
      continue;
    end if;
    select t.uploaded_by into v_uploader
      from public.tracks t where t.id = v_row.track_id
       for update skip locked;
    if not found then
      continue;
    end if;
    v_refusal := public.play_cap_refusal(v_row.listener_id, v_row.track_id, v_row.played_at);
    update public.play_events e
       set held = false, counted = v_refusal is null, refusal = v_refusal
     where e.id = v_row.id;
    if v_refusal is null then
      update public.tracks t set plays = t.plays + 1 where t.id = v_row.track_id;
      perform public.post_ledger_entry(v_uploader, public.play_rate_eur(), 'play',
                                       v_row.track_id, v_row.listener_id, null);
    end if;
    v_done := v_done + 1;
  end loop;
  return v_done;
end
$$;
revoke execute on function public.release_held_plays(integer) from public, anon, authenticated;

-- A ban refuses the account's held listens at once (refused for good: lifting the ban later does
-- not bring them back).
create or replace function public.refuse_held_plays_of_banned() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.play_events e set held = false, refusal = 'new_account'
   where e.listener_id = new.user_id and e.held;
  return new;
end
$$;
revoke execute on function public.refuse_held_plays_of_banned() from public, anon, authenticated;
create trigger account_sanctions_refuse_held_plays
  after insert on public.account_sanctions
  for each row when (new.kind = 'ban')
  execute function public.refuse_held_plays_of_banned();

-- The admin fraud view counts refused listens only (a held listen is not refused). Each function
-- is re-created from its current definition (it carries 20261129160000's guard).
do $$
declare
  fn regprocedure;
  def text;
begin
  foreach fn in array array[
    'public.admin_refused_listeners(timestamptz, integer)'::regprocedure,
    'public.admin_refused_tracks(timestamptz, integer)'::regprocedure
  ] loop
    def := pg_get_functiondef(fn);
    if position('filter (where not e.counted)' in def) = 0 then
      raise exception '%: the refused filter to change was not found', fn;
    end if;
    execute replace(def, 'filter (where not e.counted)', 'filter (where e.refusal is not null)');
  end loop;
end
$$;
