-- Artist insights (issue 35; docs/insights.md): what listeners did with each track, derived from
-- what the server saw (served_audio, play_events, the ledger, likes, follows, playlist adds),
-- kept as daily roll-ups that the worker refreshes (refresh_insights_rollups) plus the live part
-- of the days not rolled up yet, read by the artist through one function (artist_insights).
--
-- Privacy: no API role reads any of these tables; artist_insights answers aggregates of the
-- caller's own tracks only, and merges every bucket of fewer than insights_min_listeners()
-- listeners (docs/insights.md says which figures and how).

create or replace function public.insights_min_listeners() returns integer
language sql immutable parallel safe set search_path = '' as $$ select 5 $$;
-- A row of served audio that does not start at the beginning continues the listen before it
-- (the reads after a play claimed its evidence, a seek) when it follows it within this time.
create or replace function public.insights_listen_gap() returns interval
language sql immutable parallel safe set search_path = '' as $$ select interval '30 minutes' $$;
-- A day is rolled up once it has been over this long (a listen begun before midnight ends).
create or replace function public.insights_rollup_delay() returns interval
language sql immutable parallel safe set search_path = '' as $$ select interval '1 hour' $$;

-- ---------------------------------------------------------------------------------------------
-- Where a listen came from, as the client said with it and the server bounded (record_play_source).
create table public.play_sources (
  event_id uuid primary key references public.play_events (id) on delete cascade,
  source text not null check (source in (
    'search', 'explore', 'playlist', 'artist_page', 'shared_link', 'offline', 'other')),
  playlist_id uuid references public.playlists (id) on delete set null
);
create index play_sources_playlist_idx on public.play_sources (playlist_id) where playlist_id is not null;
alter table public.play_sources enable row level security;
revoke all on public.play_sources from anon, authenticated;

-- A source told before the server judged the listen (the client's call and the outbox's race).
create table public.play_source_notes (
  listener_id uuid not null references public.profiles (id) on delete cascade,
  track_id uuid not null references public.tracks (id) on delete cascade,
  session_id text not null check (char_length(session_id) between 1 and 200),
  source text not null,
  playlist_id uuid references public.playlists (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (listener_id, track_id, session_id)
);
alter table public.play_source_notes enable row level security;
revoke all on public.play_source_notes from anon, authenticated;

-- When a track was added to a playlist (playlists keep only the array).
create table public.playlist_track_adds (
  playlist_id uuid not null references public.playlists (id) on delete cascade,
  track_id uuid not null references public.tracks (id) on delete cascade,
  added_at timestamptz not null default now(),
  primary key (playlist_id, track_id, added_at)
);
create index playlist_track_adds_track_idx on public.playlist_track_adds (track_id, added_at);
alter table public.playlist_track_adds enable row level security;
revoke all on public.playlist_track_adds from anon, authenticated;

create or replace function public.note_playlist_track_adds() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.playlist_track_adds (playlist_id, track_id)
  select new.id, t
    from unnest(new.track_ids) t
   where tg_op = 'INSERT' or not (t = any (old.track_ids))
  on conflict do nothing;
  return null;
end
$$;
revoke execute on function public.note_playlist_track_adds() from public, anon, authenticated;
create trigger playlists_note_track_adds after insert or update of track_ids on public.playlists
  for each row execute function public.note_playlist_track_adds();

-- ---------------------------------------------------------------------------------------------
-- The roll-ups. One row per track and UTC day; `reach[r + 1]` counts the listens that the server
-- saw played from the start through second r (0..duration) and no further, `seek_cover[s + 1]`
-- the listens that were served second s after a seek. Per artist and day the same in percent of
-- each track's length (101 bins), so the catalogue's curve reads 365 rows, not 365 × tracks.
create table public.insights_daily (
  track_id uuid not null references public.tracks (id) on delete cascade,
  artist_id uuid not null references public.profiles (id) on delete cascade,
  day date not null,
  plays integer not null default 0,
  listeners integer not null default 0,
  earnings numeric(14, 4) not null default 0,
  likes integer not null default 0,
  playlist_adds integer not null default 0,
  listens integer not null default 0,
  skips integer not null default 0,
  listen_seconds bigint not null default 0,
  reach integer[] not null default '{}',
  seek_cover integer[] not null default '{}',
  primary key (track_id, day)
);
create index insights_daily_artist_day_idx on public.insights_daily (artist_id, day);

create table public.insights_artist_daily (
  artist_id uuid not null references public.profiles (id) on delete cascade,
  day date not null,
  followers integer not null default 0,
  reach_pct integer[] not null default '{}',
  seek_pct integer[] not null default '{}',
  primary key (artist_id, day)
);

create table public.insights_sources_daily (
  track_id uuid not null references public.tracks (id) on delete cascade,
  artist_id uuid not null references public.profiles (id) on delete cascade,
  day date not null,
  source text not null,
  playlist_id uuid,
  plays integer not null,
  listeners integer not null
);
create unique index insights_sources_daily_key on public.insights_sources_daily
  (track_id, day, source, coalesce(playlist_id, '00000000-0000-0000-0000-000000000000'));
create index insights_sources_daily_artist_idx on public.insights_sources_daily (artist_id, day);

-- Who listened when last, for the exact count of unique listeners in a window (never shown):
-- per track and per artist. listener_key is the listener's id (seeded demo listeners: random).
create table public.insights_track_listeners (
  track_id uuid not null references public.tracks (id) on delete cascade,
  listener_key uuid not null,
  last_day date not null,
  primary key (track_id, listener_key)
);
create index insights_track_listeners_day_idx on public.insights_track_listeners (track_id, last_day);
create table public.insights_artist_listeners (
  artist_id uuid not null references public.profiles (id) on delete cascade,
  listener_key uuid not null,
  last_day date not null,
  primary key (artist_id, listener_key)
);
create index insights_artist_listeners_day_idx on public.insights_artist_listeners (artist_id, last_day);

-- The live part and the roll-up read the raw records of a day per track.
create index served_audio_track_first_idx on public.served_audio (track_id, first_served_at);
create index play_events_track_created_idx on public.play_events (track_id, created_at);
create index earnings_ledger_track_created_idx on public.earnings_ledger (track_id, created_at)
  where kind = 'play';
-- The roll-up reads one day of every artist's records.
create index served_audio_first_idx on public.served_audio (first_served_at);
create index play_events_created_idx on public.play_events (created_at);
create index earnings_ledger_play_created_idx on public.earnings_ledger (created_at) where kind = 'play';
create index liked_tracks_created_idx on public.liked_tracks (created_at);
create index followers_created_idx on public.followers (created_at);

-- The days rolled up (each once; the live part is every later day).
create table public.insights_rollup_days (
  day date primary key,
  rolled_at timestamptz not null default now()
);

do $$
declare
  t text;
begin
  foreach t in array array['insights_daily', 'insights_artist_daily', 'insights_sources_daily',
                           'insights_track_listeners', 'insights_artist_listeners',
                           'insights_rollup_days']
  loop
    execute format('alter table public.%I enable row level security', t);
    execute format('revoke all on public.%I from anon, authenticated', t);
  end loop;
end
$$;

-- The banned-account policy every RLS table has (20261129170000).
do $$
declare
  t text;
begin
  foreach t in array array['play_sources', 'play_source_notes', 'playlist_track_adds',
                           'insights_daily', 'insights_artist_daily', 'insights_sources_daily',
                           'insights_track_listeners', 'insights_artist_listeners',
                           'insights_rollup_days']
  loop
    execute format(
      'create policy %I on public.%I as restrictive for all to authenticated '
      'using ((select public.is_active_account())) with check ((select public.is_active_account()))',
      t || ': not for banned accounts', t);
  end loop;
end
$$;

-- A deleted account leaves no listener key behind.
create or replace function public.forget_insights_listener() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.insights_track_listeners where listener_key = old.id;
  delete from public.insights_artist_listeners where listener_key = old.id;
  return old;
end
$$;
revoke execute on function public.forget_insights_listener() from public, anon, authenticated;
create trigger profiles_forget_insights_listener after delete on public.profiles
  for each row execute function public.forget_insights_listener();

-- ---------------------------------------------------------------------------------------------
-- Where a listen came from. The client tells it with each online listen (the session_id of its
-- increment_track_plays call); the server keeps it only for a listen it judged with evidence
-- (counted, or refused by a bound), never 'offline' for an online listen (offline listens are
-- 'offline' by the server's own record), and 'playlist' only with a playlist that holds the
-- track. Returns whether it was attached now (false: kept until the listen is judged, or the
-- listen has a source already).
create or replace function public.record_play_source(
  track_id uuid, session_id text, source text, playlist_id uuid default null
) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_listener uuid := auth.uid();
  v_source text := record_play_source.source;
  v_session text := btrim(coalesce(record_play_source.session_id, ''));
  v_event record;
begin
  if v_listener is null then
    raise exception 'Auth session missing!' using errcode = '42501';
  end if;
  perform public.refuse_sanctioned_caller('listen');
  if v_session = '' or char_length(v_session) > 200 then
    raise exception 'session_id is required (at most 200 characters)' using errcode = '22023';
  end if;
  if v_source is null or v_source not in
      ('search', 'explore', 'playlist', 'artist_page', 'shared_link', 'other') then
    raise exception 'source must be one of search, explore, playlist, artist_page, shared_link, other'
      using errcode = '22023';
  end if;
  if not exists (select 1 from public.tracks t where t.id = record_play_source.track_id) then
    raise exception 'Track not found' using errcode = 'PT404';
  end if;
  if (v_source = 'playlist') <> (record_play_source.playlist_id is not null) then
    raise exception 'playlist_id goes with source playlist, and only with it' using errcode = '22023';
  end if;
  if v_source = 'playlist' and not exists (
    select 1 from public.playlists p
     where p.id = record_play_source.playlist_id
       and record_play_source.track_id = any (p.track_ids)
  ) then
    raise exception 'That playlist does not hold this track' using errcode = '22023';
  end if;
  select e.id, e.offline, e.refusal into v_event
    from public.play_events e
   where e.listener_id = v_listener and e.track_id = record_play_source.track_id
     and e.session_id = v_session;
  if not found then
    insert into public.play_source_notes (listener_id, track_id, session_id, source, playlist_id)
    values (v_listener, record_play_source.track_id, v_session, v_source, record_play_source.playlist_id)
    on conflict do nothing;
    delete from public.play_source_notes n
     where n.listener_id = v_listener and n.created_at < now() - 2 * public.play_evidence_max_age();
    return false;
  end if;
  if v_event.offline
     or not (v_event.refusal is null
             or v_event.refusal in ('new_account', 'daily_track_limit', 'daily_listener_limit')) then
    return false; -- no evidence behind that listen: nothing to attribute
  end if;
  insert into public.play_sources (event_id, source, playlist_id)
  values (v_event.id, v_source, record_play_source.playlist_id)
  on conflict do nothing;
  return found;
end
$$;
revoke execute on function public.record_play_source(uuid, text, text, uuid) from public, anon;
grant execute on function public.record_play_source(uuid, text, text, uuid) to authenticated, service_role;

-- A judged listen with evidence takes its noted source (online) or 'offline'.
create or replace function public.attach_play_source() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_note record;
begin
  if not (new.refusal is null
          or new.refusal in ('new_account', 'daily_track_limit', 'daily_listener_limit')) then
    return null;
  end if;
  if new.offline then
    insert into public.play_sources (event_id, source) values (new.id, 'offline')
    on conflict do nothing;
    return null;
  end if;
  delete from public.play_source_notes n
   where n.listener_id = new.listener_id and n.track_id = new.track_id
     and n.session_id = new.session_id
  returning n.source, n.playlist_id into v_note;
  if found then
    insert into public.play_sources (event_id, source, playlist_id)
    values (new.id, v_note.source, v_note.playlist_id)
    on conflict do nothing;
  end if;
  return null;
end
$$;
revoke execute on function public.attach_play_source() from public, anon, authenticated;
create trigger play_events_attach_source after insert on public.play_events
  for each row execute function public.attach_play_source();

-- ---------------------------------------------------------------------------------------------
-- The listens the server saw, derived from served_audio first served in [p_from, p_to) (of one
-- artist's tracks when p_artist is given). A listen is a row of served audio (the ranges one
-- listener fetched of one object until a play claimed them) plus the rows that continue it: a
-- row that does not start within the first second and follows the previous one within
-- insights_listen_gap(). A row starting at the beginning is a new listen (a repeat).
--   through: the seconds from the start the server vouches for: the contiguous range served from
--     the beginning, no further than the wall time since the first byte (to the last read, or
--     to the judged play: the player calls after 30 s of playback, and the pace rule checked it);
--     0 when the listen did not start at the beginning (it began with a seek).
--   seeks: the seconds served outside that range (after a seek), as a range of seconds.
--   seconds: the time listened: the seconds served, no more than the wall time (at least through).
-- Downloads for offline use are not served audio (track_downloads) and make no listen here.
create or replace function public.insights_listens(
  p_from timestamptz, p_to timestamptz, p_artist uuid default null
) returns table (
  track_id uuid, artist_id uuid, listener_id uuid, day date, duration integer,
  from_start boolean, through integer, seeks int4multirange, seconds integer
)
language sql stable
security definer
set search_path = ''
as $$
  with r as (
    select s.listener_id, s.track_id, t.uploaded_by as artist_id, greatest(t.duration, 1) as duration,
           s.object, s.object_size, s.bytes, s.first_served_at, s.last_served_at,
           e.created_at as judged_at,
           lower(s.bytes)::float8 * greatest(t.duration, 1) / s.object_size < 1 as from_start
      from public.served_audio s
      join public.tracks t on t.id = s.track_id
      left join public.play_events e on e.id = s.claimed_by
     where s.first_served_at >= p_from and s.first_served_at < p_to
       and (p_artist is null or t.uploaded_by = p_artist)
  ), marked as (
    select r.*,
           case when r.from_start
                  or lag(r.last_served_at) over w is null
                  or r.first_served_at > lag(r.last_served_at) over w + public.insights_listen_gap()
                then 1 else 0 end as starts
      from r
    window w as (partition by r.listener_id, r.track_id, r.object order by r.first_served_at)
  ), grouped as (
    select m.*, sum(m.starts) over (partition by m.listener_id, m.track_id, m.object
                                    order by m.first_served_at rows unbounded preceding) as g
      from marked m
  ), listens as (
    -- Each listen: its rows' ranges in whole seconds of the track, [floor(start), floor(end)).
    select g.listener_id, g.track_id, g.artist_id, g.duration,
           min(g.first_served_at) as first_at,
           extract(epoch from greatest(max(g.last_served_at), max(g.judged_at))
                              - min(g.first_served_at))::float8 as elapsed,
           range_agg(int4range(
             least(floor(lower(x)::float8 * g.duration / g.object_size)::int, g.duration),
             least(floor(upper(x)::float8 * g.duration / g.object_size)::int, g.duration))) as served
      from grouped g, unnest(g.bytes) x
     group by g.listener_id, g.track_id, g.artist_id, g.duration, g.object, g.g
  ), split as (
    select l.*,
           coalesce(lower(l.served) = 0, false) as starts_at_0,
           case when coalesce(lower(l.served) = 0, false)
                then upper((select p from unnest(l.served) p limit 1)) else 0 end as prefix,
           coalesce((select sum(upper(p) - lower(p)) from unnest(l.served) p), 0)::int as total
      from listens l
  )
  select sp.track_id, sp.artist_id, sp.listener_id, (sp.first_at at time zone 'utc')::date,
         sp.duration, sp.starts_at_0,
         least(sp.prefix, floor(sp.elapsed)::int),
         sp.served - int4multirange(int4range(0, sp.prefix)),
         greatest(least(sp.prefix, floor(sp.elapsed)::int), least(floor(sp.elapsed)::int, sp.total))
    from split sp
$$;
revoke execute on function public.insights_listens(timestamptz, timestamptz, uuid)
  from public, anon, authenticated;

-- Histogram helpers: a reach histogram of n + 1 bins from a set of reaches.
create or replace function public.insights_hist(p_values integer[], p_n integer) returns integer[]
language sql immutable parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(coalesce(c.n, 0) order by i.i), '{}')
    from generate_series(0, greatest(p_n, 0)) i(i)
    left join (select least(greatest(v, 0), p_n) as v, count(*)::int as n
                 from unnest(p_values) v group by 1) c on c.v = i.i
$$;
-- Element-wise sum of integer arrays (bins past an array's end count 0).
create or replace function public.insights_add(a integer[], b integer[]) returns integer[]
language sql immutable parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(coalesce(a[i], 0) + coalesce(b[i], 0) order by i), '{}')
    from generate_series(1, greatest(coalesce(array_length(a, 1), 0), coalesce(array_length(b, 1), 0))) i
$$;
create or replace aggregate public.insights_sum(integer[]) (
  sfunc = public.insights_add, stype = integer[], initcond = '{}'
);

-- ---------------------------------------------------------------------------------------------
-- The daily figures of [p_from, p_to) per track (of one artist when p_artist is given), computed
-- from the raw records. The roll-up stores them; artist_insights adds them for the live days.
create or replace function public.insights_compute(
  p_from timestamptz, p_to timestamptz, p_artist uuid default null
) returns setof public.insights_daily
language sql stable
security definer
set search_path = ''
as $$
  with l as (
    select * from public.insights_listens(p_from, p_to, p_artist)
  ), lt as (
    select l.track_id, l.day, count(*)::int as listens,
           count(*) filter (
             where l.seconds < least(public.play_threshold_seconds(), l.duration) - 1)::int as skips,
           sum(l.seconds)::bigint as seconds,
           public.insights_hist(array_agg(l.through) filter (where l.from_start), max(l.duration)) as reach
      from l
     group by l.track_id, l.day
  ), sk as (
    select l.track_id, l.day, public.insights_hist(array_agg(s.s), max(l.duration)) as seeks
      from l, unnest(l.seeks) p, generate_series(lower(p), upper(p) - 1) s(s)
     group by l.track_id, l.day
  ), pe as (
    select e.track_id, (e.created_at at time zone 'utc')::date as day,
           count(*)::int as plays, count(distinct e.listener_id)::int as listeners
      from public.play_events e join public.tracks t on t.id = e.track_id
     where e.counted and e.created_at >= p_from and e.created_at < p_to
       and (p_artist is null or t.uploaded_by = p_artist)
     group by 1, 2
  ), money as (
    select x.track_id, (x.created_at at time zone 'utc')::date as day, sum(x.amount) as earnings
      from public.earnings_ledger x join public.tracks t on t.id = x.track_id
     where x.kind = 'play' and x.created_at >= p_from and x.created_at < p_to
       and (p_artist is null or t.uploaded_by = p_artist)
     group by 1, 2
  ), lk as (
    select k.track_id, (k.created_at at time zone 'utc')::date as day, count(*)::int as likes
      from public.liked_tracks k join public.tracks t on t.id = k.track_id
     where k.created_at >= p_from and k.created_at < p_to
       and (p_artist is null or t.uploaded_by = p_artist)
     group by 1, 2
  ), pa as (
    select a.track_id, (a.added_at at time zone 'utc')::date as day, count(*)::int as adds
      from public.playlist_track_adds a join public.tracks t on t.id = a.track_id
     where a.added_at >= p_from and a.added_at < p_to
       and (p_artist is null or t.uploaded_by = p_artist)
     group by 1, 2
  ), keys as (
    select track_id, day from lt union select track_id, day from pe
    union select track_id, day from money union select track_id, day from lk
    union select track_id, day from pa
  )
  select k.track_id, t.uploaded_by, k.day,
         coalesce(pe.plays, 0), coalesce(pe.listeners, 0), coalesce(money.earnings, 0),
         coalesce(lk.likes, 0), coalesce(pa.adds, 0),
         coalesce(lt.listens, 0), coalesce(lt.skips, 0), coalesce(lt.seconds, 0),
         coalesce(lt.reach, '{}'), coalesce(sk.seeks, '{}')
    from keys k
    join public.tracks t on t.id = k.track_id
    left join lt on lt.track_id = k.track_id and lt.day = k.day
    left join sk on sk.track_id = k.track_id and sk.day = k.day
    left join pe on pe.track_id = k.track_id and pe.day = k.day
    left join money on money.track_id = k.track_id and money.day = k.day
    left join lk on lk.track_id = k.track_id and lk.day = k.day
    left join pa on pa.track_id = k.track_id and pa.day = k.day
$$;
revoke execute on function public.insights_compute(timestamptz, timestamptz, uuid)
  from public, anon, authenticated;

-- A track's reach histogram (seconds) in percent of its length: 101 bins.
create or replace function public.insights_to_pct(p_hist integer[]) returns integer[]
language sql immutable parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(coalesce(c.n, 0) order by b.b), '{}')
    from generate_series(0, 100) b(b)
    left join (
      select (floor((i - 1) * 100.0 / greatest(array_length(p_hist, 1) - 1, 1)))::int as b,
             sum(p_hist[i])::int as n
        from generate_series(1, coalesce(array_length(p_hist, 1), 0)) i
       group by 1
    ) c on c.b = b.b
$$;

-- Sources per track and day (listens with evidence that carry a source).
create or replace function public.insights_compute_sources(
  p_from timestamptz, p_to timestamptz, p_artist uuid default null
) returns setof public.insights_sources_daily
language sql stable
security definer
set search_path = ''
as $$
  select e.track_id, t.uploaded_by, (e.created_at at time zone 'utc')::date, ps.source,
         ps.playlist_id, count(*)::int, count(distinct e.listener_id)::int
    from public.play_events e
    join public.play_sources ps on ps.event_id = e.id
    join public.tracks t on t.id = e.track_id
   where e.created_at >= p_from and e.created_at < p_to
     and (p_artist is null or t.uploaded_by = p_artist)
   group by 1, 2, 3, 4, 5
$$;
revoke execute on function public.insights_compute_sources(timestamptz, timestamptz, uuid)
  from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- The worker's roll-up (server/insights/rollups.ts calls it every few minutes on every worker
-- node): each UTC day that has been over for insights_rollup_delay() and is not rolled up yet,
-- oldest first, at most p_max_days a call. Several nodes: one at a time (an advisory lock; the
-- others return 0). Idempotent: a day's rows are replaced, and a day is marked done in the same
-- transaction. Returns the number of days rolled up.
create or replace function public.refresh_insights_rollups(p_max_days integer default 3)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_day date;
  v_last date := ((now() - public.insights_rollup_delay()) at time zone 'utc')::date - 1;
  v_first date;
  v_done integer := 0;
  v_from timestamptz;
  v_to timestamptz;
begin
  if not pg_try_advisory_xact_lock(hashtext('insights:rollup')) then
    return 0;
  end if;
  -- From the day after the last rolled up one; on a new database, from the oldest evidence
  -- still kept (older days have no raw evidence left to roll up).
  select max(d.day) + 1 into v_first from public.insights_rollup_days d;
  if v_first is null then
    -- Nothing recorded yet: nothing to roll up (the first day with records starts it).
    v_first := least((select min(s.first_served_at at time zone 'utc')::date from public.served_audio s),
                     (select min(e.created_at at time zone 'utc')::date from public.play_events e));
    if v_first is null then
      return 0;
    end if;
  end if;
  v_day := v_first;
  while v_day <= v_last and v_done < p_max_days loop
    v_from := v_day::timestamp at time zone 'utc';
    v_to := (v_day + 1)::timestamp at time zone 'utc';
    delete from public.insights_daily where day = v_day;
    insert into public.insights_daily select * from public.insights_compute(v_from, v_to, null);
    delete from public.insights_sources_daily where day = v_day;
    insert into public.insights_sources_daily
      select * from public.insights_compute_sources(v_from, v_to, null);
    delete from public.insights_artist_daily where day = v_day;
    insert into public.insights_artist_daily (artist_id, day, reach_pct, seek_pct)
    select d.artist_id, v_day,
           public.insights_sum(public.insights_to_pct(d.reach)),
           public.insights_sum(public.insights_to_pct(d.seek_cover))
      from public.insights_daily d where d.day = v_day group by d.artist_id;
    insert into public.insights_artist_daily (artist_id, day, followers)
    select fo.following_id, v_day, count(*)::int from public.followers fo
     where fo.created_at >= v_from and fo.created_at < v_to
     group by 1
    on conflict (artist_id, day) do update set followers = excluded.followers;
    insert into public.insights_track_listeners (track_id, listener_key, last_day)
    select distinct e.track_id, e.listener_id, v_day from public.play_events e
     where e.counted and e.created_at >= v_from and e.created_at < v_to
    on conflict (track_id, listener_key) do update
      set last_day = greatest(public.insights_track_listeners.last_day, excluded.last_day);
    insert into public.insights_artist_listeners (artist_id, listener_key, last_day)
    select distinct t.uploaded_by, e.listener_id, v_day
      from public.play_events e join public.tracks t on t.id = e.track_id
     where e.counted and e.created_at >= v_from and e.created_at < v_to
    on conflict (artist_id, listener_key) do update
      set last_day = greatest(public.insights_artist_listeners.last_day, excluded.last_day);
    insert into public.insights_rollup_days (day) values (v_day)
    on conflict (day) do update set rolled_at = now();
    v_done := v_done + 1;
    v_day := v_day + 1;
  end loop;
  return v_done;
end
$$;
revoke execute on function public.refresh_insights_rollups(integer) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- A curve from a reach histogram (bins 0..n), with every drop of fewer than
-- insights_min_listeners() listens merged into the next one (the last into the one before):
-- [{x, share}] where share is the percentage still listening at x; the first point is 100 and
-- no point rises. Seeks apart: the percentage of listens served that bin after a seek, bins of
-- fewer than insights_min_listeners() listens shown as 0.
create or replace function public.insights_curve(p_hist integer[], p_seeks integer[])
returns jsonb
language plpgsql immutable
set search_path = ''
as $$
declare
  v_n integer := coalesce(array_length(p_hist, 1), 0);
  v_total bigint := 0;
  v_left bigint;
  v_pending bigint := 0;
  v_points jsonb := '[]';
  v_drops integer[] := '{}';
  v_last integer := 0;
  i integer;
  v_seek integer;
  v_min integer := public.insights_min_listeners();
begin
  for i in 1 .. v_n loop
    v_total := v_total + coalesce(p_hist[i], 0);
  end loop;
  if v_total < v_min then
    return null;
  end if;
  -- reach r (bin r + 1): the listen played seconds [0, r), so it is still there at x < r.
  -- Drops merged: pending listens are released at a bin once there are v_min of them.
  v_drops := array_fill(0, array[v_n]);
  for i in 1 .. v_n loop
    v_pending := v_pending + coalesce(p_hist[i], 0);
    if v_pending >= v_min then
      v_drops[i] := v_pending;
      v_last := i;
      v_pending := 0;
    end if;
  end loop;
  if v_pending > 0 then
    v_drops[v_last] := v_drops[v_last] + v_pending;
  end if;
  v_left := v_total;
  for i in 1 .. v_n loop
    -- x = i - 1: still listening = those whose reach exceeds x.
    if i > 1 then
      v_left := v_left - v_drops[i - 1];
    end if;
    v_seek := coalesce(p_seeks[i], 0);
    v_points := v_points || jsonb_build_object(
      'x', i - 1,
      'share', case when i = 1 then 100 else round(v_left * 100.0 / v_total, 1) end,
      'seek', case when v_seek < v_min then 0 else round(v_seek * 100.0 / v_total, 1) end);
  end loop;
  return v_points;
end
$$;

-- Time buckets: days for 7 and 30 days, weeks (Monday) for 90, months for 12 months.
create or replace function public.insights_bucket(p_day date, p_period text) returns date
language sql immutable parallel safe
set search_path = ''
as $$
  select case p_period when '12m' then date_trunc('month', p_day)::date
                       when '90d' then date_trunc('week', p_day)::date
                       else p_day end
$$;

-- ---------------------------------------------------------------------------------------------
-- What the artist reads (/insights): their catalogue (p_track null) or one of their tracks,
-- over p_period '7d' | '30d' | '90d' | '12m' (ending today, UTC). Roll-ups for the rolled-up days
-- plus the live part computed for the caller's tracks only. Another artist's track is a 404.
create or replace function public.artist_insights(p_period text default '30d', p_track uuid default null)
returns jsonb
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_me uuid := auth.uid();
  v_period text := coalesce(p_period, '30d');
  v_min integer := public.insights_min_listeners();
  v_today date := (now() at time zone 'utc')::date;
  v_start date;
  v_live date;
  v_live_from timestamptz;
  v_duration integer;
  v_totals jsonb;
  v_series jsonb;
  v_curve jsonb;
  v_sources jsonb;
  v_playlists jsonb;
  v_tracks jsonb;
  v_listeners bigint;
  v_followers bigint;
  v_reach integer[];
  v_seeks integer[];
  v_days public.insights_daily[];
  v_src public.insights_sources_daily[];
begin
  if v_me is null then
    raise exception 'Auth session missing!' using errcode = '42501';
  end if;
  perform public.refuse_sanctioned_caller('listen');
  if v_period not in ('7d', '30d', '90d', '12m') then
    raise exception 'period must be one of 7d, 30d, 90d, 12m' using errcode = '22023';
  end if;
  if p_track is not null then
    select greatest(t.duration, 1) into v_duration from public.tracks t
     where t.id = p_track and t.uploaded_by = v_me;
    if not found then
      raise exception 'Track not found' using errcode = 'PT404';
    end if;
  end if;
  v_start := v_today - case v_period when '7d' then 6 when '30d' then 29 when '90d' then 89
                                     else 364 end;
  v_live := greatest(v_start, coalesce((select max(d.day) + 1 from public.insights_rollup_days d), v_start));
  v_live_from := v_live::timestamp at time zone 'utc';

  -- The window's days: rolled up, then live (computed for the caller's tracks only).
  v_days := array(
    select d from public.insights_daily d
     where d.artist_id = v_me and d.day >= v_start and d.day < v_live
       and (p_track is null or d.track_id = p_track)
    union all
    select c from public.insights_compute(v_live_from, now() + interval '1 second', v_me) c
     where p_track is null or c.track_id = p_track);
  v_src := array(
    select s from public.insights_sources_daily s
     where s.artist_id = v_me and s.day >= v_start and s.day < v_live
       and (p_track is null or s.track_id = p_track)
    union all
    select c from public.insights_compute_sources(v_live_from, now() + interval '1 second', v_me) c
     where p_track is null or c.track_id = p_track);

  -- Unique listeners in the window (exact): rolled-up keys plus today's counted listeners.
  if p_track is null then
    select count(*) into v_listeners from (
      select a.listener_key from public.insights_artist_listeners a
       where a.artist_id = v_me and a.last_day >= v_start
      union
      select e.listener_id from public.play_events e join public.tracks t on t.id = e.track_id
       where t.uploaded_by = v_me and e.counted and e.created_at >= v_live_from) u;
    select coalesce(sum(f.followers), 0) into v_followers from public.insights_artist_daily f
     where f.artist_id = v_me and f.day >= v_start and f.day < v_live;
    v_followers := v_followers + (select count(*) from public.followers fo
                                   where fo.following_id = v_me and fo.created_at >= v_live_from);
  else
    select count(*) into v_listeners from (
      select a.listener_key from public.insights_track_listeners a
       where a.track_id = p_track and a.last_day >= v_start
      union
      select e.listener_id from public.play_events e
       where e.track_id = p_track and e.counted and e.created_at >= v_live_from) u;
    v_followers := null;
  end if;

  select jsonb_build_object(
           'plays', coalesce(sum(d.plays), 0),
           'listeners', v_listeners,
           'followers', v_followers,
           'likes', coalesce(sum(d.likes), 0),
           'playlist_adds', coalesce(sum(d.playlist_adds), 0),
           'earnings', coalesce(sum(d.earnings), 0),
           'listens', coalesce(sum(d.listens), 0),
           'skip_rate', case when coalesce(sum(d.listens), 0) >= v_min
                             then round(sum(d.skips) * 100.0 / greatest(sum(d.listens), 1), 1) end,
           'avg_listen_seconds', case when coalesce(sum(d.listens), 0) >= v_min
                                      then round(sum(d.listen_seconds)::numeric / sum(d.listens), 1) end)
    into v_totals from unnest(v_days) d;

  -- The series: plays, listeners (per bucket: the sum of each day's listeners), earnings, likes,
  -- adds per bucket; a bucket of fewer than v_min listeners is merged into the next one (the
  -- last into the one before it).
  with b as (
    select public.insights_bucket(d.day, v_period) as bucket, sum(d.plays)::int as plays,
           sum(d.listeners)::int as listeners, sum(d.earnings) as earnings,
           sum(d.likes)::int as likes, sum(d.playlist_adds)::int as adds
      from unnest(v_days) d group by 1
  ), all_b as (
    select g::date as bucket from generate_series(
      public.insights_bucket(v_start, v_period), v_today,
      case v_period when '12m' then interval '1 month' when '90d' then interval '1 week'
                    else interval '1 day' end) g
  ), j as (
    select a.bucket, coalesce(b.plays, 0) as plays, coalesce(b.listeners, 0) as listeners,
           coalesce(b.earnings, 0) as earnings, coalesce(b.likes, 0) as likes,
           coalesce(b.adds, 0) as adds
      from all_b a left join b on b.bucket = a.bucket
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'bucket', j.bucket, 'plays', j.plays, 'listeners', j.listeners,
           'earnings', j.earnings, 'likes', j.likes, 'playlist_adds', j.adds)
           order by j.bucket), '[]')
    into v_series from j;
  v_series := public.insights_merge_series(v_series);

  -- The listen-through curve: one track in seconds, the catalogue in percent of each track.
  if p_track is not null then
    select public.insights_sum(d.reach), public.insights_sum(d.seek_cover)
      into v_reach, v_seeks from unnest(v_days) d;
  else
    select public.insights_sum(a.reach_pct), public.insights_sum(a.seek_pct)
      into v_reach, v_seeks from public.insights_artist_daily a
     where a.artist_id = v_me and a.day >= v_start and a.day < v_live;
    select public.insights_add(coalesce(v_reach, '{}'), coalesce(public.insights_sum(public.insights_to_pct(d.reach)), '{}')),
           public.insights_add(coalesce(v_seeks, '{}'), coalesce(public.insights_sum(public.insights_to_pct(d.seek_cover)), '{}'))
      into v_reach, v_seeks from unnest(v_days) d where d.day >= v_live;
  end if;
  v_curve := case when v_listeners >= v_min then public.insights_curve(v_reach, v_seeks) end;

  -- Sources: listens per source; a source of fewer than v_min listeners joins 'other', and
  -- 'other' of fewer than v_min is not shown.
  with s as (
    select src.source, sum(src.plays)::int as plays, sum(src.listeners)::int as listeners
      from unnest(v_src) src group by 1
  ), m as (
    select case when s.listeners >= v_min then s.source else 'other' end as source,
           sum(s.plays)::int as plays, sum(s.listeners)::int as listeners
      from s group by 1
  )
  select coalesce(jsonb_agg(jsonb_build_object('source', m.source, 'plays', m.plays)
                            order by m.plays desc, m.source), '[]')
    into v_sources from m where m.listeners >= v_min;

  -- Top playlists the track is in (the catalogue's: any of the artist's tracks), by the listens
  -- they brought in the window (shown only from v_min listeners on), then by their adds.
  with p as (
    select pl.id, pl.name from public.playlists pl
     where exists (select 1 from public.tracks t
                    where t.uploaded_by = v_me and (p_track is null or t.id = p_track)
                      and t.id = any (pl.track_ids))
  ), brought as (
    select src.playlist_id, sum(src.plays)::int as plays, sum(src.listeners)::int as listeners
      from unnest(v_src) src where src.playlist_id is not null group by 1
  )
  select coalesce(jsonb_agg(x.o order by x.plays desc nulls last, x.name), '[]') into v_playlists
    from (
      select p.name, case when b.listeners >= v_min then b.plays end as plays,
             jsonb_build_object('id', p.id, 'name', p.name,
                                'plays', case when b.listeners >= v_min then b.plays end) as o
        from p left join brought b on b.playlist_id = p.id
       order by 2 desc nulls last, p.name
       limit 10
    ) x;

  -- The catalogue's tracks with their figures (for the track picker and the table).
  if p_track is null then
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', t.id, 'title', t.title, 'plays', coalesce(x.plays, 0),
             'likes', coalesce(x.likes, 0), 'earnings', coalesce(x.earnings, 0))
             order by coalesce(x.plays, 0) desc, t.title), '[]')
      into v_tracks
      from public.tracks t
      left join (select d.track_id, sum(d.plays)::int as plays, sum(d.likes)::int as likes,
                        sum(d.earnings) as earnings
                   from unnest(v_days) d group by 1) x on x.track_id = t.id
     where t.uploaded_by = v_me;
  end if;

  return jsonb_build_object(
    'period', v_period, 'from', v_start, 'to', v_today, 'track', p_track,
    'duration', v_duration, 'unit', case when p_track is null then 'percent' else 'second' end,
    'min_listeners', v_min, 'totals', v_totals, 'series', v_series, 'curve', v_curve,
    'sources', v_sources, 'playlists', v_playlists, 'tracks', v_tracks);
end
$$;

-- Merges series buckets of fewer than insights_min_listeners() listeners into the next bucket
-- (the last ones into the one before): the merged bucket keeps the later date and a 'merged'
-- count of buckets.
create or replace function public.insights_merge_series(p_series jsonb) returns jsonb
language plpgsql immutable
set search_path = ''
as $$
declare
  v_out jsonb := '[]';
  v_acc jsonb := null;
  v_min integer := public.insights_min_listeners();
  v_item jsonb;
  v_n integer;
begin
  for v_item in select value from jsonb_array_elements(p_series) loop
    if v_acc is null then
      v_acc := v_item || jsonb_build_object('merged', 1, 'since', v_item -> 'bucket');
    else
      v_acc := jsonb_build_object(
        'bucket', v_item -> 'bucket', 'since', v_acc -> 'since',
        'merged', (v_acc ->> 'merged')::int + 1,
        'plays', (v_acc ->> 'plays')::int + (v_item ->> 'plays')::int,
        'listeners', (v_acc ->> 'listeners')::int + (v_item ->> 'listeners')::int,
        'earnings', (v_acc ->> 'earnings')::numeric + (v_item ->> 'earnings')::numeric,
        'likes', (v_acc ->> 'likes')::int + (v_item ->> 'likes')::int,
        'playlist_adds', (v_acc ->> 'playlist_adds')::int + (v_item ->> 'playlist_adds')::int);
    end if;
    -- A bucket nobody listened in reveals no one: it stands alone.
    if (v_acc ->> 'listeners')::int >= v_min
       or ((v_acc ->> 'listeners')::int = 0 and (v_acc ->> 'plays')::int = 0) then
      v_out := v_out || jsonb_build_array(v_acc);
      v_acc := null;
    end if;
  end loop;
  if v_acc is not null then
    v_n := jsonb_array_length(v_out);
    if v_n = 0 then
      v_out := jsonb_build_array(v_acc || jsonb_build_object('hidden', true));
    else
      v_item := v_out -> (v_n - 1);
      v_out := (v_out - (v_n - 1)) || jsonb_build_array(jsonb_build_object(
        'bucket', v_acc -> 'bucket', 'since', v_item -> 'since',
        'merged', (v_item ->> 'merged')::int + (v_acc ->> 'merged')::int,
        'plays', (v_item ->> 'plays')::int + (v_acc ->> 'plays')::int,
        'listeners', (v_item ->> 'listeners')::int + (v_acc ->> 'listeners')::int,
        'earnings', (v_item ->> 'earnings')::numeric + (v_acc ->> 'earnings')::numeric,
        'likes', (v_item ->> 'likes')::int + (v_acc ->> 'likes')::int,
        'playlist_adds', (v_item ->> 'playlist_adds')::int + (v_acc ->> 'playlist_adds')::int));
    end if;
  end if;
  return v_out;
end
$$;

revoke execute on function public.artist_insights(text, uuid) from public, anon;
grant execute on function public.artist_insights(text, uuid) to authenticated, service_role;
