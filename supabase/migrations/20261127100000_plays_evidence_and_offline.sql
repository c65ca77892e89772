-- Honest plays (issue 23; docs/plays.md): a counted play is a fact the server observed.
--
--   - served_audio: the audio the server sent each listener through signed URLs (byte ranges of
--     the object, first and last time served). The storage app reports every read that carries
--     bytes (server/plays/evidence.ts calls record_served_audio on the server's own connection);
--     no API role can read or write it.
--   - increment_track_plays (20261127110000) counts a play only against that evidence: at least
--     play_threshold_seconds() of audio (or the whole track if shorter) served to the caller for
--     the track, and as much wall time since the first byte (minus play_pace_slack_seconds()).
--     The client's session_id is only the idempotency key of its call; its played_at is ignored.
--   - track_downloads: which user downloaded which track on which device and when (a signed read
--     asked as a download, `&download`, by a plan with offline downloads). record_offline_play
--     accepts a listen with its played_at only for a track downloaded at that time, at most one
--     listen per track per its duration of wall time, within the download's validity window.
--   - Bounds for both: play_events refused by a bound keep their refusal reason; new accounts
--     (unconfirmed e-mail, or younger than new_account_age()) do not earn; per listener and
--     track per day (10) and per listener per day overall (300).
--   - An unknown track id is a 404 (PT404), not a 500.

-- ---------------------------------------------------------------------------------------------
-- The figures of the rule, each defined once (docs/plays.md says why each is what it is).
create or replace function public.play_threshold_seconds() returns integer
language sql immutable parallel safe set search_path = '' as $$ select 30 $$;
create or replace function public.play_pace_slack_seconds() returns integer
language sql immutable parallel safe set search_path = '' as $$ select 2 $$;
create or replace function public.max_counted_plays_per_listener_day() returns integer
language sql immutable parallel safe set search_path = '' as $$ select 300 $$;
create or replace function public.new_account_age() returns interval
language sql immutable parallel safe set search_path = '' as $$ select interval '1 hour' $$;
create or replace function public.play_evidence_max_age() returns interval
language sql immutable parallel safe set search_path = '' as $$ select interval '1 day' $$;
create or replace function public.offline_download_validity() returns interval
language sql immutable parallel safe set search_path = '' as $$ select interval '30 days' $$;

-- ---------------------------------------------------------------------------------------------
-- play_events: why a listen was not counted (filled for earlier rows by 20261127110000), whether
-- it was made offline, and what the server had served for it.
alter table public.play_events
  add column refusal text check (refusal in (
    'no_audio_served', 'not_enough_audio', 'too_fast', 'own_track', 'new_account',
    'daily_track_limit', 'daily_listener_limit', 'not_downloaded', 'outside_download_window',
    'too_frequent')),
  add column offline boolean not null default false,
  add column device_id text check (char_length(device_id) <= 200),
  -- Seconds of audio the server had served for this listen (online), when it was judged.
  add column served_seconds real;
create index play_events_refused_idx on public.play_events (created_at) where not counted;
create index play_events_listener_played_idx on public.play_events (listener_id, played_at)
  where refusal is null or refusal in ('new_account', 'daily_track_limit', 'daily_listener_limit');

-- ---------------------------------------------------------------------------------------------
-- The evidence. One open row per listener, track and object collects the ranges served until a
-- listen claims it; a later read starts a new row.
create table public.served_audio (
  id uuid primary key default gen_random_uuid(),
  listener_id uuid not null references public.profiles (id) on delete cascade,
  track_id uuid not null references public.tracks (id) on delete cascade,
  object text not null check (char_length(object) <= 1200),
  object_size bigint not null check (object_size > 0),
  bytes int8multirange not null,
  first_served_at timestamptz not null default now(),
  last_served_at timestamptz not null default now(),
  claimed_at timestamptz,
  claimed_by uuid references public.play_events (id) on delete set null
);
create unique index served_audio_open_idx on public.served_audio (listener_id, track_id, object)
  where claimed_at is null;
create index served_audio_last_idx on public.served_audio (listener_id, last_served_at);
create index served_audio_track_idx on public.served_audio (track_id);
create index served_audio_claimed_by_idx on public.served_audio (claimed_by);
alter table public.served_audio enable row level security;
revoke all on public.served_audio from anon, authenticated;

-- Offline downloads: written by the server when it serves a download, renewed by a plan check.
create table public.track_downloads (
  user_id uuid not null references public.profiles (id) on delete cascade,
  track_id uuid not null references public.tracks (id) on delete cascade,
  device_id text not null default '' check (char_length(device_id) <= 200),
  object text not null check (char_length(object) <= 1200),
  downloaded_at timestamptz not null default now(),
  checked_at timestamptz not null default now(),
  valid_until timestamptz not null,
  primary key (user_id, track_id, device_id)
);
create index track_downloads_track_idx on public.track_downloads (track_id);
alter table public.track_downloads enable row level security;
revoke all on public.track_downloads from anon, authenticated;
grant select on public.track_downloads to authenticated;
create policy "track_downloads: the user or an admin reads" on public.track_downloads
  for select to authenticated using (user_id = (select auth.uid()) or (select public.is_admin()));

-- Seconds of audio a row's byte ranges hold, for a track of `duration` seconds.
create or replace function public.served_seconds(bytes int8multirange, object_size bigint, duration integer)
returns double precision
language sql immutable parallel safe
set search_path = ''
as $$
  select coalesce(sum(upper(r) - lower(r)), 0)::double precision / object_size * greatest(duration, 0)
    from unnest(bytes) r
$$;

-- The track an object of a signed read belongs to: renditions/<track id>/<quality>.mp3, or the
-- original in the tracks bucket that a track's audio_url names.
create or replace function public.track_of_object(p_bucket text, p_name text) returns uuid
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_first text := split_part(p_name, '/', 1);
  v_id uuid;
begin
  if p_bucket = 'renditions' then
    if v_first ~ '^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$' then
      select t.id into v_id from public.tracks t where t.id = v_first::uuid;
    end if;
  elsif p_bucket = 'tracks' then
    select t.id into v_id from public.tracks t
     where t.audio_url = 'tracks/' || p_name
        or t.audio_url like '%/storage/v1/object/public/tracks/' || p_name
     order by t.created_at
     limit 1;
  end if;
  return v_id;
end
$$;
revoke execute on function public.track_of_object(text, text) from public, anon, authenticated;

-- One read through a signed URL that carried bytes [p_start, p_end] of an object of p_size
-- bytes, signed for p_listener. A download (`&download`) by a plan with offline downloads is
-- recorded in track_downloads; any other read is evidence of listening. Called by the server's
-- own connection only (server/plays/evidence.ts).
create or replace function public.record_served_audio(
  p_listener uuid, p_bucket text, p_name text, p_start bigint, p_end bigint, p_size bigint,
  p_download boolean default false, p_device text default null
) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_track uuid;
  v_object text := p_bucket || '/' || p_name;
begin
  if p_listener is null or p_size is null or p_size <= 0 or p_start < 0 or p_end < p_start then
    return;
  end if;
  v_track := public.track_of_object(p_bucket, p_name);
  if v_track is null or not exists (select 1 from public.profiles p where p.id = p_listener) then
    return;
  end if;
  if p_download then
    if public.plan_allows_offline(p_listener) then
      insert into public.track_downloads as d
        (user_id, track_id, device_id, object, valid_until)
      values (p_listener, v_track, left(coalesce(btrim(p_device), ''), 200), v_object,
              now() + public.offline_download_validity())
      on conflict (user_id, track_id, device_id) do update
        set object = excluded.object, checked_at = now(), valid_until = excluded.valid_until;
    end if;
    return;
  end if;
  insert into public.served_audio as s (listener_id, track_id, object, object_size, bytes)
  values (p_listener, v_track, v_object, p_size,
          int8multirange(int8range(p_start, least(p_end, p_size - 1) + 1)))
  on conflict (listener_id, track_id, object) where claimed_at is null do update
    set bytes = s.bytes + excluded.bytes,
        object_size = excluded.object_size,
        last_served_at = now();
  delete from public.served_audio s
   where s.listener_id = p_listener
     and s.last_served_at < now() - 2 * public.play_evidence_max_age();
end
$$;
revoke execute on function public.record_served_audio(uuid, text, text, bigint, bigint, bigint, boolean, text)
  from public, anon, authenticated;

-- The bounds every listen meets before it earns (online and offline): null, or the refusal.
-- Call with the track row locked (the counts are then exact for this track).
create or replace function public.play_bound_refusal(p_listener uuid, p_track uuid, p_at timestamptz)
returns text
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_day_start timestamptz := date_trunc('day', p_at at time zone 'utc') at time zone 'utc';
begin
  if not exists (
    select 1 from auth.users u
     where u.id = p_listener and u.email_confirmed_at is not null
       and u.created_at <= p_at - public.new_account_age()
  ) then
    return 'new_account';
  end if;
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
revoke execute on function public.play_bound_refusal(uuid, uuid, timestamptz) from public, anon, authenticated;

-- Records one judged listen; counts it (plays + 1, the uploader credited) when not refused.
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
begin
  insert into public.play_events
    (listener_id, track_id, session_id, played_at, counted, refusal, offline, device_id, served_seconds)
  values (p_listener, p_track, p_session, p_at, p_refusal is null, p_refusal, p_offline,
          nullif(left(btrim(p_device), 200), ''), p_served)
  on conflict on constraint play_events_once_per_session do nothing
  returning id into v_event;
  if v_event is null then
    return null; -- this call was made before (a retry): nothing new
  end if;
  if p_history then
    insert into public.listening_history (user_id, track_id, listened_at)
    values (p_listener, p_track, p_at);
  end if;
  if p_refusal is null then
    update public.tracks t set plays = t.plays + 1 where t.id = p_track;
    perform public.post_ledger_entry(p_uploader, public.play_rate_eur(), 'play',
                                     p_track, p_listener, null);
  end if;
  return v_event;
end
$$;
revoke execute on function public.record_judged_play(uuid, uuid, uuid, text, timestamptz, text, boolean, text, real, boolean)
  from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- A listen made offline, sent on reconnect with the time it qualified (played_at). Accepted for
-- a track the caller downloaded (track_downloads; on device_id when given) when played_at lies
-- in the download's window [downloaded_at, valid_until] and not in the future, at most one per
-- track per its duration of wall time and none within the 30 s of another offline listen of
-- the caller. session_id: the idempotency key (default: the track and played_at). Returns whether
-- it was counted; refusals are recorded with their reason.
create or replace function public.record_offline_play(
  track_id uuid, played_at timestamptz, session_id text default null, device_id text default null
) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_listener uuid := auth.uid();
  v_uploader uuid;
  v_listenable boolean;
  v_duration integer;
  v_need double precision;
  v_device text := nullif(left(btrim(record_offline_play.device_id), 200), '');
  v_refusal text;
  v_session text;
  v_event uuid;
  v_at timestamptz := record_offline_play.played_at;
begin
  if v_listener is null then
    raise exception 'Auth session missing!' using errcode = '42501';
  end if;
  if v_at is null then
    raise exception 'played_at is required' using errcode = '22023';
  end if;
  select t.uploaded_by, public.track_is_listenable(t.status, t.taken_down_at), t.duration
    into v_uploader, v_listenable, v_duration
  from public.tracks t where t.id = record_offline_play.track_id
  for update;
  if not found then
    raise exception 'Track not found' using errcode = 'PT404';
  end if;
  if not v_listenable then
    return false;
  end if;
  v_session := left(coalesce(
    nullif(btrim(record_offline_play.session_id), ''),
    'offline:' || to_char(v_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US')
  ), 200);
  if exists (select 1 from public.play_events e
              where e.listener_id = v_listener and e.track_id = record_offline_play.track_id
                and e.session_id = v_session) then
    return false;
  end if;
  v_need := least(public.play_threshold_seconds(), greatest(v_duration, 1));

  if v_uploader = v_listener then
    v_refusal := 'own_track';
  elsif not exists (
    select 1 from public.track_downloads d
     where d.user_id = v_listener and d.track_id = record_offline_play.track_id
       and (v_device is null or d.device_id = v_device)
  ) then
    v_refusal := 'not_downloaded';
  elsif v_at > now() + make_interval(secs => public.play_pace_slack_seconds())
     or not exists (
    select 1 from public.track_downloads d
     where d.user_id = v_listener and d.track_id = record_offline_play.track_id
       and (v_device is null or d.device_id = v_device)
       and v_at >= d.downloaded_at and v_at <= d.valid_until
  ) then
    v_refusal := 'outside_download_window';
  elsif exists (
    select 1 from public.play_events e
     where e.listener_id = v_listener and e.offline
       and (e.refusal is null or e.refusal in ('new_account', 'daily_track_limit', 'daily_listener_limit'))
       and (
         (e.track_id = record_offline_play.track_id
          and abs(extract(epoch from e.played_at - v_at)) < greatest(v_duration, 1))
         or abs(extract(epoch from e.played_at - v_at)) < v_need - public.play_pace_slack_seconds())
  ) then
    v_refusal := 'too_frequent';
  else
    v_refusal := public.play_bound_refusal(v_listener, record_offline_play.track_id, v_at);
  end if;

  v_event := public.record_judged_play(
    v_listener, record_offline_play.track_id, v_uploader, v_session, least(v_at, now()), v_refusal,
    true, v_device, null,
    v_refusal is null or v_refusal in ('new_account', 'daily_track_limit', 'daily_listener_limit'));
  return v_event is not null and v_refusal is null;
end
$$;
revoke execute on function public.record_offline_play(uuid, timestamptz, text, text) from public, anon;
grant execute on function public.record_offline_play(uuid, timestamptz, text, text) to authenticated, service_role;

-- The plan check of a device's downloads (the offline client calls it when online): a plan with
-- offline downloads renews their validity (valid_until = now() + 30 days); any other plan ends
-- them (the rows are deleted). Returns the caller's downloads on that device (all devices when
-- device_id is null) as they now stand.
create or replace function public.renew_track_downloads(device_id text default null)
returns setof public.track_downloads
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_device text := nullif(left(btrim(renew_track_downloads.device_id), 200), '');
begin
  if v_user is null then
    raise exception 'Auth session missing!' using errcode = '42501';
  end if;
  if public.plan_allows_offline(v_user) then
    update public.track_downloads d
       set checked_at = now(), valid_until = now() + public.offline_download_validity()
     where d.user_id = v_user and (v_device is null or d.device_id = v_device);
  else
    delete from public.track_downloads d
     where d.user_id = v_user and (v_device is null or d.device_id = v_device);
  end if;
  return query
    select d.* from public.track_downloads d
     where d.user_id = v_user and (v_device is null or d.device_id = v_device)
     order by d.downloaded_at, d.track_id;
end
$$;
revoke execute on function public.renew_track_downloads(text) from public, anon;
grant execute on function public.renew_track_downloads(text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The admin dashboard's fraud view: who and what had the most refused listens since p_since
-- (own_track excluded: an artist checking their own upload is not fraud, and never earns).
create or replace function public.admin_refused_listeners(
  p_since timestamptz default now() - interval '30 days', p_limit integer default 20
) returns table (
  listener_id uuid, name text, email text, refused bigint, counted bigint,
  top_reason text, last_refused_at timestamptz
)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Only admins can do this.' using errcode = '42501';
  end if;
  return query
    select e.listener_id, p.name, p.email,
           count(*) filter (where not e.counted),
           count(*) filter (where e.counted),
           mode() within group (order by e.refusal) filter (where not e.counted),
           max(e.created_at) filter (where not e.counted)
      from public.play_events e
      join public.profiles p on p.id = e.listener_id
     where e.created_at >= p_since and e.refusal is distinct from 'own_track'
     group by e.listener_id, p.name, p.email
    having count(*) filter (where not e.counted) > 0
     order by 4 desc, 7 desc, 1
     limit least(greatest(coalesce(p_limit, 20), 1), 100);
end
$$;
revoke execute on function public.admin_refused_listeners(timestamptz, integer) from public, anon;
grant execute on function public.admin_refused_listeners(timestamptz, integer) to authenticated, service_role;

create or replace function public.admin_refused_tracks(
  p_since timestamptz default now() - interval '30 days', p_limit integer default 20
) returns table (
  track_id uuid, title text, artist text, refused bigint, counted bigint, listeners bigint,
  top_reason text, last_refused_at timestamptz
)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Only admins can do this.' using errcode = '42501';
  end if;
  return query
    select e.track_id, t.title, t.artist,
           count(*) filter (where not e.counted),
           count(*) filter (where e.counted),
           count(distinct e.listener_id) filter (where not e.counted),
           mode() within group (order by e.refusal) filter (where not e.counted),
           max(e.created_at) filter (where not e.counted)
      from public.play_events e
      join public.tracks t on t.id = e.track_id
     where e.created_at >= p_since and e.refusal is distinct from 'own_track'
     group by e.track_id, t.title, t.artist
    having count(*) filter (where not e.counted) > 0
     order by 4 desc, 8 desc, 1
     limit least(greatest(coalesce(p_limit, 20), 1), 100);
end
$$;
revoke execute on function public.admin_refused_tracks(timestamptz, integer) from public, anon;
grant execute on function public.admin_refused_tracks(timestamptz, integer) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The outbox's mutations (20261122003000) learn 'play.offline': {track_id, played_at, session_id,
-- device_id} → record_offline_play. 'play.record' is unchanged (increment_track_plays).
-- One mutation, as the caller (security invoker: RLS, grants and guard triggers decide).
create or replace function public.sync_apply_one(p_op text, a jsonb) returns void
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_ids uuid[];
begin
  case p_op
    when 'like.add' then
      insert into public.liked_tracks (id, user_id, track_id)
      values (coalesce((a ->> 'id')::uuid, gen_random_uuid()), v_uid, (a ->> 'track_id')::uuid)
      on conflict do nothing;
    when 'like.remove' then
      delete from public.liked_tracks l
      where l.user_id = v_uid and l.track_id = (a ->> 'track_id')::uuid;
    when 'follow.add' then
      insert into public.followers (follower_id, following_id)
      values (v_uid, (a ->> 'following_id')::uuid)
      on conflict do nothing;
    when 'follow.remove' then
      delete from public.followers f
      where f.follower_id = v_uid and f.following_id = (a ->> 'following_id')::uuid;
    when 'playlist.create' then
      insert into public.playlists (id, name, description, created_by, track_ids)
      values ((a ->> 'id')::uuid, a ->> 'name', coalesce(a ->> 'description', ''), v_uid,
              coalesce(array(select jsonb_array_elements_text(a -> 'track_ids'))::uuid[], '{}'))
      on conflict (id) do nothing;
    when 'playlist.update' then
      update public.playlists p
         set name = case when a ? 'name' then a ->> 'name' else p.name end,
             description = case when a ? 'description' then coalesce(a ->> 'description', '')
                                else p.description end
       where p.id = (a ->> 'id')::uuid;
      if not found then
        raise exception 'Playlist not found' using errcode = 'P0002';
      end if;
    when 'playlist.delete' then
      delete from public.playlists p where p.id = (a ->> 'id')::uuid;
    when 'playlist.add_track' then
      perform public.add_track_to_playlist((a ->> 'id')::uuid, (a ->> 'track_id')::uuid);
    when 'playlist.remove_track' then
      update public.playlists p set track_ids = array_remove(p.track_ids, (a ->> 'track_id')::uuid)
       where p.id = (a ->> 'id')::uuid and p.track_ids @> array[(a ->> 'track_id')::uuid];
    when 'playlist.reorder' then
      -- The wanted order of the tracks still in the playlist; tracks added elsewhere meanwhile
      -- keep their place at the end.
      v_ids := array(select jsonb_array_elements_text(a -> 'track_ids'))::uuid[];
      update public.playlists p set track_ids = array(
        select s.x from (
          select t.x, t.ord from unnest(v_ids) with ordinality as t(x, ord)
           where t.x = any (p.track_ids)
          union all
          select c.x, 1000000 + c.ord from unnest(p.track_ids) with ordinality as c(x, ord)
           where not (c.x = any (v_ids))
        ) s order by s.ord)
       where p.id = (a ->> 'id')::uuid;
      if not found then
        raise exception 'Playlist not found' using errcode = 'P0002';
      end if;
    when 'lyrics.save' then
      insert into public.track_lyrics (track_id, lyrics, language, is_synced)
      values ((a ->> 'track_id')::uuid, coalesce(a -> 'lyrics', '[]'::jsonb),
              coalesce(a ->> 'language', 'en'), coalesce((a ->> 'is_synced')::boolean, true))
      on conflict (track_id) do update
        set lyrics = excluded.lyrics, language = excluded.language, is_synced = excluded.is_synced;
    when 'profile.update' then
      update public.profiles p
         set name = case when a ? 'name' then a ->> 'name' else p.name end,
             avatar_url = case when a ? 'avatar_url' then a ->> 'avatar_url' else p.avatar_url end,
             bio = case when a ? 'bio' then a ->> 'bio' else p.bio end,
             social_links = case when a ? 'social_links' then coalesce(a -> 'social_links', '{}')
                                 else p.social_links end,
             featured_track = case when a ? 'featured_track' then (a ->> 'featured_track')::uuid
                                   else p.featured_track end,
             featured_playlist = case when a ? 'featured_playlist'
                                      then (a ->> 'featured_playlist')::uuid
                                      else p.featured_playlist end
       where p.id = v_uid;
      if not found then
        raise exception 'Profile not found.' using errcode = 'P0002';
      end if;
    when 'play.record' then
      perform public.increment_track_plays((a ->> 'track_id')::uuid, a ->> 'session_id',
                                           (a ->> 'played_at')::timestamptz);
    when 'play.offline' then
      perform public.record_offline_play((a ->> 'track_id')::uuid, (a ->> 'played_at')::timestamptz,
                                         a ->> 'session_id', a ->> 'device_id');
    else
      raise exception 'Unknown operation %', p_op using errcode = '22023';
  end case;
end
$$;
revoke execute on function public.sync_apply_one(text, jsonb) from public, anon;
grant execute on function public.sync_apply_one(text, jsonb) to authenticated;
