-- Tracks a listener may not see stay out of the security definer functions too.
--
-- RLS hides a track from listeners while it is not ready (processing, failed: 20261125100000)
-- and once it is taken down (20261125200000); its uploader and admins still see it. Security
-- definer functions run as their owner and bypass those policies, so each one that reads tracks
-- for a listener says the same thing itself:
--   - recommend_tracks returned hidden tracks (to anyone, anon included);
--   - increment_track_plays counted a play of a hidden track, and paid its uploader for it;
--   - add_track_to_playlist let a listener put a hidden track in a playlist.
-- Security invoker functions (search_tracks, may_fetch_quality, may_fetch_original, my_earnings)
-- and every REST read already go through RLS.

-- The listener rule in one place: ready and not taken down. (The restrictive policies keep their
-- own expressions, which also let the uploader and admins through.)
create or replace function public.track_is_listenable(status text, taken_down_at timestamptz)
returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select status = 'ready' and taken_down_at is null
$$;
revoke execute on function public.track_is_listenable(text, timestamptz) from public;
grant execute on function public.track_is_listenable(text, timestamptz)
  to anon, authenticated, service_role;

-- Same ranking as 20261122005000; only listenable tracks seed it or come out of it.
create or replace function public.recommend_tracks(
  played_ids uuid[] default '{}',
  seed_artists text[] default '{}',
  seed_genres text[] default '{}',
  max_results integer default 10
)
returns setof public.tracks
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_played uuid[] := array(
    select distinct p from unnest(coalesce(played_ids, '{}')) p where p is not null limit 50
  );
  v_known uuid[];
  v_artists text[];
  v_genres text[];
  v_limit integer := least(greatest(coalesce(max_results, 10), 1), 50);
begin
  v_known := v_played;
  if v_user is not null then
    v_known := v_known
      || array(
        select h.track_id from public.listening_history h
         where h.user_id = v_user
         group by h.track_id
         order by max(h.listened_at) desc
         limit 500)
      || array(
        select l.track_id from public.liked_tracks l
         where l.user_id = v_user
         order by l.created_at desc
         limit 500);
    v_known := array(select distinct k from unnest(v_known) k);
  end if;

  -- A hidden track's artist or genre is not a seed (its id would reveal them).
  v_artists := array(
    select distinct lower(btrim(a))
      from unnest(coalesce(seed_artists, '{}')
                  || array(select t.artist from public.tracks t
                            where t.id = any(v_played)
                              and public.track_is_listenable(t.status, t.taken_down_at))) a
     where coalesce(btrim(a), '') <> ''
  );
  v_genres := array(
    select distinct lower(btrim(g))
      from unnest(coalesce(seed_genres, '{}')
                  || array(select t.genre from public.tracks t
                            where t.id = any(v_played)
                              and public.track_is_listenable(t.status, t.taken_down_at))) g
     where coalesce(btrim(g), '') <> ''
  );

  return query
    with interactions as not materialized (
      select h.user_id, h.track_id from public.listening_history h
      union
      select l.user_id, l.track_id from public.liked_tracks l
    ),
    neighbours as (
      select i.user_id, count(*)::float8 as shared
        from interactions i
       where i.track_id = any(v_known)
         and i.user_id is distinct from v_user
       group by i.user_id
       order by count(*) desc, i.user_id
       limit 200
    ),
    weighted as (
      select n.user_id, n.shared / sqrt(count(*)::float8) as weight
        from neighbours n
        join interactions i on i.user_id = n.user_id
       group by n.user_id, n.shared
    ),
    collaborative as (
      select i.track_id, sum(w.weight) as score
        from interactions i
        join weighted w on w.user_id = i.user_id
       group by i.track_id
    )
    select t.*
      from public.tracks t
      left join collaborative c on c.track_id = t.id
     where t.uploaded_by is distinct from v_user
       and not (t.id = any(v_known))
       and public.track_is_listenable(t.status, t.taken_down_at)
     order by
       coalesce(c.score, 0) desc,
       case
         when lower(btrim(t.artist)) = any(v_artists) then 2
         when lower(btrim(coalesce(t.genre, ''))) = any(v_genres) then 1
         else 0
       end desc,
       t.plays desc, t.created_at desc, t.id
     limit v_limit;
end
$$;

revoke execute on function public.recommend_tracks(uuid[], text[], text[], integer) from public;
grant execute on function public.recommend_tracks(uuid[], text[], text[], integer)
  to anon, authenticated, service_role;

-- Same play rule as 20261122000500; a play of a hidden track is not a play: nothing is recorded
-- (no play event, no history, no count, no money) and the answer is false, as for the
-- uploader's own plays. Not an error: a listen made just before a takedown, sent later from the
-- outbox, is then simply not counted instead of failing the listener's sync.
create or replace function public.increment_track_plays(
  track_id uuid, session_id text default null, played_at timestamptz default null
) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_listener uuid := auth.uid();
  v_uploader uuid;
  v_listenable boolean;
  v_at timestamptz := least(now(), greatest(coalesce(played_at, now()), now() - interval '7 days'));
  v_day_start timestamptz;
  v_session text;
  v_event uuid;
  v_counted_today integer;
begin
  if v_listener is null then
    raise exception 'Auth session missing!' using errcode = '42501';
  end if;
  -- The track row lock serialises concurrent calls for this track (the count below is exact)
  -- and a takedown or status change: a play counts only against the row as it is now.
  select t.uploaded_by, public.track_is_listenable(t.status, t.taken_down_at)
    into v_uploader, v_listenable
  from public.tracks t where t.id = increment_track_plays.track_id
  for update;
  if not found then
    raise exception 'Track not found' using errcode = 'P0002';
  end if;
  if v_uploader = v_listener or not v_listenable then
    return false;
  end if;

  v_day_start := date_trunc('day', v_at at time zone 'utc') at time zone 'utc';
  v_session := left(coalesce(
    nullif(btrim(increment_track_plays.session_id), ''),
    nullif(auth.jwt() ->> 'session_id', ''),
    'day:' || to_char(v_day_start at time zone 'utc', 'YYYY-MM-DD')
  ), 200);

  insert into public.play_events (listener_id, track_id, session_id, played_at)
  values (v_listener, increment_track_plays.track_id, v_session, v_at)
  on conflict on constraint play_events_once_per_session do nothing
  returning id into v_event;
  if v_event is null then
    return false; -- already recorded in this session
  end if;

  insert into public.listening_history (user_id, track_id, listened_at)
  values (v_listener, increment_track_plays.track_id, v_at);

  select count(*) into v_counted_today
  from public.play_events e
  where e.listener_id = v_listener and e.track_id = increment_track_plays.track_id and e.counted
    and e.played_at >= v_day_start and e.played_at < v_day_start + interval '1 day';
  if v_counted_today >= public.max_counted_plays_per_day() then
    return false;
  end if;

  update public.play_events set counted = true where id = v_event;
  update public.tracks t set plays = t.plays + 1 where t.id = increment_track_plays.track_id;
  perform public.post_ledger_entry(v_uploader, public.play_rate_eur(), 'play',
                                   increment_track_plays.track_id, v_listener, null);
  return true;
end
$$;
revoke execute on function public.increment_track_plays(uuid, text, timestamptz) from public, anon;
grant execute on function public.increment_track_plays(uuid, text, timestamptz) to authenticated, service_role;

-- Same as 20261122000400; the track must be one the caller may see (listenable, or their own
-- upload, or any track for an admin), else 'Track not found' as for a track that does not exist.
create or replace function public.add_track_to_playlist(playlist_id uuid, track_id uuid)
returns uuid[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_owner uuid;
  v_ids uuid[];
begin
  if auth.uid() is null then
    raise exception 'Auth session missing!' using errcode = '42501';
  end if;
  select p.created_by, p.track_ids into v_owner, v_ids
  from public.playlists p where p.id = add_track_to_playlist.playlist_id
  for update;
  if not found or v_owner <> auth.uid() then
    raise exception 'Playlist not found' using errcode = 'P0002';
  end if;
  if not exists (
    select 1 from public.tracks t
     where t.id = add_track_to_playlist.track_id
       and (public.track_is_listenable(t.status, t.taken_down_at)
            or t.uploaded_by = auth.uid()
            or public.is_admin())
  ) then
    raise exception 'Track not found' using errcode = 'P0002';
  end if;
  if add_track_to_playlist.track_id = any (v_ids) then
    return v_ids;
  end if;
  update public.playlists p
     set track_ids = array_append(p.track_ids, add_track_to_playlist.track_id)
   where p.id = add_track_to_playlist.playlist_id
  returning p.track_ids into v_ids;
  return v_ids;
end
$$;
revoke execute on function public.add_track_to_playlist(uuid, uuid) from public, anon;
grant execute on function public.add_track_to_playlist(uuid, uuid) to authenticated, service_role;
