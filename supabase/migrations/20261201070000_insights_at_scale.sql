-- Artist insights at 1M plays (issue 35; docs/insights.md "Aggregates in PostgreSQL"):
--
-- * The derivations are PL/pgSQL (RETURN QUERY): their plans are kept per session, where a SQL
--   function's complex query was planned again on every call of the page.
-- * JIT off for the insights functions: the roll-up's row estimates (unnest × generate_series)
--   passed jit_above_cost and PostgreSQL spent ~0.6-4 s per call compiling expressions for a few
--   thousand rows (EXPLAIN ANALYZE: "JIT ... Total 4582 ms" of a 4886 ms roll-up of one day).
-- * insights_listens looks the judging play up by its primary key (it joined play_events by a hash
--   join that read the whole table on every call) and groups a slice's rows with the rows just
--   before and after it, so a listen crossing a slice's edge stays one listen (in the slice it began).
-- * The roll-up works by the hour: every hour that has been over for insights_rollup_delay() is
--   added to the day's rows once (advisory lock; the hour is marked in the same transaction), so the
--   page's live part reads at most the last hour and a half of raw evidence.
-- * Unique listeners per time bucket are exact: insights_bucket_listeners counts, per track and per
--   artist, each listener once per day, week and month (a listener is new to a bucket when the key
--   tables' last day before this hour is older than the bucket's start). The 90-day and 12-month
--   windows start at their first week's Monday / month's first day, so every bucket is whole.

create or replace function public.insights_rollup_delay() returns interval
language sql immutable parallel safe set search_path = '' as $$ select interval '30 minutes' $$;

-- Pure helpers called per row are inlined: a SET clause keeps PostgreSQL from inlining a SQL
-- function (a function call per row: 640 day rows through insights_bucket cost 16 ms). They read
-- no table and call only pg_catalog, which is searched first whatever the search_path.
alter function public.insights_bucket(date, text) reset search_path;
alter function public.insights_listen_gap() reset search_path;
alter function public.insights_min_listeners() reset search_path;

-- The hours rolled up since the last whole day (a whole day moves to insights_rollup_days).
create table public.insights_rollup_hours (
  hour timestamptz primary key,
  rolled_at timestamptz not null default now()
);

-- Distinct listeners per track or artist (scope_id) and day, week (Monday) or month (1st).
create table public.insights_bucket_listeners (
  scope_id uuid not null,
  per text not null check (per in ('day', 'week', 'month')),
  bucket date not null,
  listeners integer not null,
  -- the sketch of the bucket's listeners (insights_mins): merged buckets' "5 or more" test
  listener_mins bigint[] not null default '{}',
  primary key (scope_id, per, bucket)
);

do $$
declare
  t text;
begin
  foreach t in array array['insights_rollup_hours', 'insights_bucket_listeners']
  loop
    execute format('alter table public.%I enable row level security', t);
    execute format('revoke all on public.%I from anon, authenticated', t);
    execute format(
      'create policy %I on public.%I as restrictive for all to authenticated '
      'using ((select public.is_active_account())) with check ((select public.is_active_account()))',
      t || ': not for banned accounts', t);
  end loop;
end
$$;

-- A deleted track or artist leaves no counts behind (scope_id is either).
create or replace function public.forget_insights_scope() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.insights_bucket_listeners where scope_id = old.id;
  return old;
end
$$;
revoke execute on function public.forget_insights_scope() from public, anon, authenticated;
create trigger tracks_forget_insights_scope after delete on public.tracks
  for each row execute function public.forget_insights_scope();
create trigger profiles_forget_insights_scope after delete on public.profiles
  for each row execute function public.forget_insights_scope();

-- Sources per track and day keep the insights_min_listeners() smallest hashes of their
-- listeners (a "k minimum values" sketch, k = 5): the union of several rows' sets holds 5 hashes
-- exactly when their listeners are 5 or more, so merging under 5 is exact across days and hours
-- (a 64-bit hash collision can only count fewer). listeners stays the sum of the hours' counts.
create or replace function public.insights_listener_hash(p_listener uuid) returns bigint
language sql immutable parallel safe
as $$ select pg_catalog.hashtextextended(p_listener::text, 0) $$;
create or replace function public.insights_mins(p_hashes bigint[]) returns bigint[]
language sql immutable parallel safe set search_path = ''
as $$
  select coalesce(array_agg(x.h order by x.h), '{}')
    from (select distinct h from unnest(p_hashes) h order by h
           limit public.insights_min_listeners()) x
$$;
alter table public.insights_sources_daily add column listener_mins bigint[] not null default '{}';

-- A day's figures without its histograms (what artist_insights sums per bucket and track).
create type public.insights_figures as (
  track_id uuid, day date, plays integer, earnings numeric(14, 4), likes integer,
  playlist_adds integer, listens integer, skips integer, listen_seconds bigint
);

-- Where the live part begins: after the last hour or day rolled up (null: nothing rolled up yet).
create or replace function public.insights_live_from() returns timestamptz
language sql stable
set search_path = ''
as $$
  select greatest((select max(d.day) + 1 from public.insights_rollup_days d)::timestamp at time zone 'utc',
                  (select max(h.hour) + interval '1 hour' from public.insights_rollup_hours h))
$$;
revoke execute on function public.insights_live_from() from public, anon, authenticated;

create or replace function public.insights_listens(
  p_from timestamptz, p_to timestamptz, p_artist uuid default null
) returns table (
  track_id uuid, artist_id uuid, listener_id uuid, day date, duration integer,
  from_start boolean, through integer, seeks int4multirange, seconds integer
)
language plpgsql stable
security definer
set search_path = ''
set jit = off
as $$
#variable_conflict use_column
begin
  return query

  with r as (
    select s.listener_id, s.track_id, t.uploaded_by as artist_id, greatest(t.duration, 1) as duration,
           s.object, s.object_size, s.bytes, s.first_served_at, s.last_served_at,
           (select e.created_at from public.play_events e where e.id = s.claimed_by) as judged_at,
           lower(s.bytes)::float8 * greatest(t.duration, 1) / s.object_size < 1 as from_start
      from public.served_audio s
      join public.tracks t on t.id = s.track_id
     -- The rows of the hour before and of a listen gap after: a listen is grouped whole and kept
     -- in the slice where it began. Of those, only the rows of a listener, track and object
     -- served in the slice too (the others cannot join a listen of the slice).
     where s.first_served_at >= p_from - interval '1 hour'
       and s.first_served_at < p_to + public.insights_listen_gap()
       and (p_artist is null or t.uploaded_by = p_artist)
       and ((s.first_served_at >= p_from and s.first_served_at < p_to)
            or exists (select 1 from public.served_audio s2
                        where s2.listener_id = s.listener_id and s2.last_served_at >= p_from
                          and s2.first_served_at >= p_from and s2.first_served_at < p_to
                          and s2.track_id = s.track_id and s2.object = s.object))
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
   where sp.first_at >= p_from and sp.first_at < p_to;
end
$$;
revoke execute on function public.insights_listens(timestamptz, timestamptz, uuid)
  from public, anon, authenticated;

-- The figures of [p_from, p_to) per track and day (as before, in PL/pgSQL: its plan is kept for
-- the session, where a SQL function's was made again on every call).
create or replace function public.insights_compute(
  p_from timestamptz, p_to timestamptz, p_artist uuid default null
) returns setof public.insights_daily
language plpgsql stable
security definer
set search_path = ''
set jit = off
as $$
begin
  return query

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
         coalesce(pe.plays, 0), coalesce(pe.listeners, 0), coalesce(money.earnings, 0)::numeric(14, 4),
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
    left join pa on pa.track_id = k.track_id and pa.day = k.day;
end
$$;
revoke execute on function public.insights_compute(timestamptz, timestamptz, uuid)
  from public, anon, authenticated;


-- Sources per track and day (listens with evidence that carry a source).
create or replace function public.insights_compute_sources(
  p_from timestamptz, p_to timestamptz, p_artist uuid default null
) returns setof public.insights_sources_daily
language plpgsql stable
security definer
set search_path = ''
set jit = off
as $$
begin
  return query

  select e.track_id, t.uploaded_by, (e.created_at at time zone 'utc')::date, ps.source,
         ps.playlist_id, count(*)::int, count(distinct e.listener_id)::int,
         public.insights_mins(array_agg(public.insights_listener_hash(e.listener_id)))
    from public.play_events e
    -- by key, a play at a time (a hash join read all of play_sources on every call)
    cross join lateral (select p.source, p.playlist_id from public.play_sources p
                         where p.event_id = e.id limit 1) ps
    join public.tracks t on t.id = e.track_id
   where e.created_at >= p_from and e.created_at < p_to
     and (p_artist is null or t.uploaded_by = p_artist)
   group by 1, 2, 3, 4, 5;
end
$$;
revoke execute on function public.insights_compute_sources(timestamptz, timestamptz, uuid)
  from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- The worker's roll-up, by the hour (server/insights/rollups.ts calls it every few minutes on
-- every worker node): each UTC hour that has been over for insights_rollup_delay() and is not
-- rolled up yet, oldest first, at most p_max_hours a call, is added to its day's rows. Several
-- nodes: one at a time (an advisory lock; the others return 0). Once: an hour is marked in the
-- same transaction as its figures are added (a day whose 24 hours are in moves to
-- insights_rollup_days). Returns the number of hours rolled up.
drop function public.refresh_insights_rollups(integer);
create function public.refresh_insights_rollups(p_max_hours integer default 72)
returns integer
language plpgsql
security definer
set search_path = ''
set jit = off
as $$
declare
  v_hour timestamptz;
  v_to timestamptz;
  v_last timestamptz := date_trunc('hour', now() - public.insights_rollup_delay(), 'UTC') - interval '1 hour';
  v_day date;
  v_done integer := 0;
begin
  if not pg_try_advisory_xact_lock(hashtext('insights:rollup')) then
    return 0;
  end if;
  v_hour := public.insights_live_from();
  if v_hour is null then
    -- Nothing rolled up yet: from the oldest evidence still kept (nothing recorded: nothing to do).
    v_hour := date_trunc('hour', least(
      (select min(s.first_served_at) from public.served_audio s),
      (select min(e.created_at) from public.play_events e)), 'UTC');
    if v_hour is null then
      return 0;
    end if;
  end if;
  while v_hour <= v_last and v_done < p_max_hours loop
    v_to := v_hour + interval '1 hour';
    v_day := (v_hour at time zone 'utc')::date;

    -- Distinct listeners: a counted listener of this hour is new to a day, week or month of a
    -- track (of an artist) unless the keys say they were last heard in it already.
    with k as (
      select distinct e.track_id, t.uploaded_by as artist_id, e.listener_id
        from public.play_events e join public.tracks t on t.id = e.track_id
       where e.counted and e.created_at >= v_hour and e.created_at < v_to
    ), prev as (
      select k.track_id as scope_id, public.insights_listener_hash(k.listener_id) as h, tl.last_day
        from (select distinct k.track_id, k.listener_id from k) k
        left join public.insights_track_listeners tl
          on tl.track_id = k.track_id and tl.listener_key = k.listener_id
      union all
      select k.artist_id, public.insights_listener_hash(k.listener_id), al.last_day
        from (select distinct k.artist_id, k.listener_id from k) k
        left join public.insights_artist_listeners al
          on al.artist_id = k.artist_id and al.listener_key = k.listener_id
    )
    insert into public.insights_bucket_listeners as b (scope_id, per, bucket, listeners, listener_mins)
    select p.scope_id, v.per, v.bucket,
           (count(*) filter (where p.last_day is null or p.last_day < v.bucket))::int,
           public.insights_mins(array_agg(p.h))
      from prev p,
           (values ('day', v_day), ('week', date_trunc('week', v_day)::date),
                   ('month', date_trunc('month', v_day)::date)) v(per, bucket)
     group by 1, 2, 3
    on conflict (scope_id, per, bucket) do update
      set listeners = b.listeners + excluded.listeners,
          listener_mins = public.insights_mins(b.listener_mins || excluded.listener_mins);

    insert into public.insights_track_listeners (track_id, listener_key, last_day)
    select distinct e.track_id, e.listener_id, v_day from public.play_events e
     where e.counted and e.created_at >= v_hour and e.created_at < v_to
    on conflict (track_id, listener_key) do update
      set last_day = greatest(public.insights_track_listeners.last_day, excluded.last_day);
    insert into public.insights_artist_listeners (artist_id, listener_key, last_day)
    select distinct t.uploaded_by, e.listener_id, v_day
      from public.play_events e join public.tracks t on t.id = e.track_id
     where e.counted and e.created_at >= v_hour and e.created_at < v_to
    on conflict (artist_id, listener_key) do update
      set last_day = greatest(public.insights_artist_listeners.last_day, excluded.last_day);

    -- The hour's figures added to the day's (the curves as histograms add bin by bin).
    with c as materialized (
      select * from public.insights_compute(v_hour, v_to, null)
    ), tracks as (
      insert into public.insights_daily as d
      select * from c
      on conflict (track_id, day) do update set
        plays = d.plays + excluded.plays,
        earnings = d.earnings + excluded.earnings,
        likes = d.likes + excluded.likes,
        playlist_adds = d.playlist_adds + excluded.playlist_adds,
        listens = d.listens + excluded.listens,
        skips = d.skips + excluded.skips,
        listen_seconds = d.listen_seconds + excluded.listen_seconds,
        reach = public.insights_add(d.reach, excluded.reach),
        seek_cover = public.insights_add(d.seek_cover, excluded.seek_cover)
    )
    insert into public.insights_artist_daily as a (artist_id, day, reach_pct, seek_pct)
    select c.artist_id, v_day, public.insights_sum(public.insights_to_pct(c.reach)),
           public.insights_sum(public.insights_to_pct(c.seek_cover))
      from c group by c.artist_id
    on conflict (artist_id, day) do update set
      reach_pct = public.insights_add(a.reach_pct, excluded.reach_pct),
      seek_pct = public.insights_add(a.seek_pct, excluded.seek_pct);
    update public.insights_daily d set listeners = b.listeners
      from public.insights_bucket_listeners b
     where d.day = v_day and b.scope_id = d.track_id and b.per = 'day' and b.bucket = v_day
       and d.listeners <> b.listeners;

    insert into public.insights_artist_daily as a (artist_id, day, followers)
    select fo.following_id, v_day, count(*)::int from public.followers fo
     where fo.created_at >= v_hour and fo.created_at < v_to
     group by 1
    on conflict (artist_id, day) do update set followers = a.followers + excluded.followers;

    insert into public.insights_sources_daily as s
    select * from public.insights_compute_sources(v_hour, v_to, null)
    on conflict (track_id, day, source, coalesce(playlist_id, '00000000-0000-0000-0000-000000000000'))
    do update set plays = s.plays + excluded.plays, listeners = s.listeners + excluded.listeners,
                  listener_mins = public.insights_mins(s.listener_mins || excluded.listener_mins);

    if v_to = (v_day + 1)::timestamp at time zone 'utc' then
      insert into public.insights_rollup_days (day) values (v_day)
      on conflict (day) do update set rolled_at = now();
      delete from public.insights_rollup_hours where hour < v_to;
    else
      insert into public.insights_rollup_hours (hour) values (v_hour)
      on conflict (hour) do update set rolled_at = now();
    end if;
    v_done := v_done + 1;
    v_hour := v_to;
  end loop;
  return v_done;
end
$$;
revoke execute on function public.refresh_insights_rollups(integer) from public, anon, authenticated;

create or replace function public.artist_insights(p_period text default '30d', p_track uuid default null)
returns jsonb
language plpgsql stable
security definer
set search_path = ''
set jit = off
as $$
declare
  v_me uuid := auth.uid();
  v_period text := coalesce(p_period, '30d');
  v_min integer := public.insights_min_listeners();
  v_today date := (now() at time zone 'utc')::date;
  v_start date;
  v_per text := case coalesce(p_period, '30d') when '12m' then 'month' when '90d' then 'week'
                                             else 'day' end;
  v_scope uuid;
  v_live_from timestamptz;
  v_live_rows public.insights_daily[];
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
  v_days public.insights_figures[];
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
  -- The window starts at its first bucket's start (90 days: that week's Monday; 12 months: that
  -- month's first day), so each bucket's distinct listeners are whole.
  v_start := public.insights_bucket(
    v_today - case v_period when '7d' then 6 when '30d' then 29 when '90d' then 89 else 364 end,
    v_period);
  v_scope := coalesce(p_track, v_me);
  -- The live part: what the worker has not rolled up yet (at most the last hour and a half).
  v_live_from := greatest(v_start::timestamp at time zone 'utc',
                          coalesce(public.insights_live_from(), v_start::timestamp at time zone 'utc'));

  -- The window's days: rolled up (a day's rolled hours), then live (the caller's tracks only).
  v_live_rows := array(
    select c from public.insights_compute(v_live_from, now() + interval '1 second', v_me) c
     where p_track is null or c.track_id = p_track);
  v_days := array(
    select (d.track_id, d.day, d.plays, d.earnings, d.likes, d.playlist_adds, d.listens, d.skips,
            d.listen_seconds)::public.insights_figures
      from public.insights_daily d
     where d.artist_id = v_me and d.day >= v_start and d.day <= v_today
       and (p_track is null or d.track_id = p_track)
    union all
    select (d.track_id, d.day, d.plays, d.earnings, d.likes, d.playlist_adds, d.listens, d.skips,
            d.listen_seconds)::public.insights_figures
      from unnest(v_live_rows) d);
  v_src := array(
    select s from public.insights_sources_daily s
     where s.artist_id = v_me and s.day >= v_start and s.day <= v_today
       and (p_track is null or s.track_id = p_track)
    union all
    select c from public.insights_compute_sources(v_live_from, now() + interval '1 second', v_me) c
     where p_track is null or c.track_id = p_track);

  -- Unique listeners in the window (exact): the rolled-up keys last heard in it, plus the live
  -- listeners whose key was not (each looked up by its key).
  if p_track is null then
    select count(*) into v_listeners from public.insights_artist_listeners a
     where a.artist_id = v_me and a.last_day >= v_start;
    v_listeners := v_listeners + (
      select count(*) from (
        select distinct e.listener_id from public.play_events e
          join public.tracks t on t.id = e.track_id
         where t.uploaded_by = v_me and e.counted and e.created_at >= v_live_from) x
       where coalesce((select k.last_day from public.insights_artist_listeners k
                        where k.artist_id = v_me and k.listener_key = x.listener_id),
                      '-infinity'::date) < v_start);
    select coalesce(sum(f.followers), 0) into v_followers from public.insights_artist_daily f
     where f.artist_id = v_me and f.day >= v_start and f.day <= v_today;
    v_followers := v_followers + (select count(*) from public.followers fo
                                   where fo.following_id = v_me and fo.created_at >= v_live_from);
  else
    select count(*) into v_listeners from public.insights_track_listeners a
     where a.track_id = p_track and a.last_day >= v_start;
    v_listeners := v_listeners + (
      select count(*) from (
        select distinct e.listener_id from public.play_events e
         where e.track_id = p_track and e.counted and e.created_at >= v_live_from) x
       where coalesce((select k.last_day from public.insights_track_listeners k
                        where k.track_id = p_track and k.listener_key = x.listener_id),
                      '-infinity'::date) < v_start);
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

  -- The series: plays, distinct listeners, earnings, likes, adds per bucket; a bucket of fewer
  -- than v_min listeners is merged into the next one (the last into the one before it).
  -- Listeners: the rolled-up count of the bucket plus the live listeners new to it (their key's
  -- last rolled-up day is before the bucket).
  with lv as (
    select x.bucket,
           (count(*) filter (where coalesce(case when p_track is null
                         then (select k.last_day from public.insights_artist_listeners k
                                where k.artist_id = v_me and k.listener_key = x.listener_id)
                         else (select k.last_day from public.insights_track_listeners k
                                where k.track_id = p_track and k.listener_key = x.listener_id)
                         end, '-infinity'::date) < x.bucket))::int as listeners,
           public.insights_mins(array_agg(public.insights_listener_hash(x.listener_id))) as mins
      from (select distinct e.listener_id,
                   public.insights_bucket((e.created_at at time zone 'utc')::date, v_period) as bucket
              from public.play_events e join public.tracks t on t.id = e.track_id
             where t.uploaded_by = v_me and (p_track is null or e.track_id = p_track)
               and e.counted and e.created_at >= v_live_from) x
     group by 1
  ), u as (
    select bl.bucket, bl.listeners, bl.listener_mins as mins from public.insights_bucket_listeners bl
     where bl.scope_id = v_scope and bl.per = v_per and bl.bucket >= v_start
    union all
    select lv.bucket, lv.listeners, lv.mins from lv
  ), lb as (
    select u.bucket, sum(u.listeners)::int as listeners,
           (select public.insights_mins(array_agg(m.h)) from u u2, unnest(u2.mins) m(h)
             where u2.bucket = u.bucket) as mins
      from u group by 1
  ), b as (
    select public.insights_bucket(d.day, v_period) as bucket, sum(d.plays)::int as plays,
           sum(d.earnings) as earnings,
           sum(d.likes)::int as likes, sum(d.playlist_adds)::int as adds
      from unnest(v_days) d group by 1
  ), all_b as (
    select g::date as bucket from generate_series(
      public.insights_bucket(v_start, v_period), v_today,
      case v_period when '12m' then interval '1 month' when '90d' then interval '1 week'
                    else interval '1 day' end) g
  ), j as (
    select a.bucket, coalesce(b.plays, 0) as plays, coalesce(lb.listeners, 0) as listeners,
           coalesce(lb.mins, '{}') as mins,
           coalesce(b.earnings, 0) as earnings, coalesce(b.likes, 0) as likes,
           coalesce(b.adds, 0) as adds
      from all_b a left join b on b.bucket = a.bucket left join lb on lb.bucket = a.bucket
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'bucket', j.bucket, 'plays', j.plays, 'listeners', j.listeners, 'mins', j.mins,
           'earnings', j.earnings, 'likes', j.likes, 'playlist_adds', j.adds)
           order by j.bucket), '[]')
    into v_series from j;
  v_series := public.insights_merge_series(v_series);

  -- The listen-through curve: one track in seconds, the catalogue in percent of each track.
  if p_track is not null then
    select public.insights_sum(d.reach), public.insights_sum(d.seek_cover)
      into v_reach, v_seeks
      from (select d.reach, d.seek_cover from public.insights_daily d
             where d.track_id = p_track and d.day >= v_start and d.day <= v_today
            union all
            select l.reach, l.seek_cover from unnest(v_live_rows) l) d;
  else
    select public.insights_sum(a.reach_pct), public.insights_sum(a.seek_pct)
      into v_reach, v_seeks from public.insights_artist_daily a
     where a.artist_id = v_me and a.day >= v_start and a.day <= v_today;
    select public.insights_add(coalesce(v_reach, '{}'), coalesce(public.insights_sum(public.insights_to_pct(d.reach)), '{}')),
           public.insights_add(coalesce(v_seeks, '{}'), coalesce(public.insights_sum(public.insights_to_pct(d.seek_cover)), '{}'))
      into v_reach, v_seeks from unnest(v_live_rows) d;
  end if;
  v_curve := case when v_listeners >= v_min then public.insights_curve(v_reach, v_seeks) end;

  -- Sources: listens per source; a source of fewer than v_min distinct listeners joins 'other',
  -- and 'other' of fewer than v_min is not shown. Distinct over the window: the union of the
  -- rows' listener_mins has v_min hashes exactly when v_min listeners or more (insights_mins).
  with h as (
    select distinct src.source, x.h from unnest(v_src) src, unnest(src.listener_mins) x(h)
  ), big as (
    select h.source from h group by 1 having count(*) >= v_min
  ), s as (
    select src.source, sum(src.plays)::int as plays from unnest(v_src) src group by 1
  ), m as (
    select case when s.source in (select big.source from big) then s.source else 'other' end
             as source,
           sum(s.plays)::int as plays
      from s group by 1
  )
  select coalesce(jsonb_agg(jsonb_build_object('source', m.source, 'plays', m.plays)
                            order by m.plays desc, m.source), '[]')
    into v_sources from m
   where m.source in (select big.source from big)
      or (select count(distinct h.h) from h
           where h.source not in (select big.source from big)) >= v_min;

  -- Top playlists the track is in (the catalogue's: any of the artist's tracks), by the listens
  -- they brought in the window (shown only from v_min listeners on), then by their adds.
  with p as (
    select pl.id, pl.name from public.playlists pl
     where exists (select 1 from public.tracks t
                    where t.uploaded_by = v_me and (p_track is null or t.id = p_track)
                      and t.id = any (pl.track_ids))
  ), brought as (
    select src.playlist_id, sum(src.plays)::int as plays,
           (select count(distinct x.h) from unnest(v_src) y, unnest(y.listener_mins) x(h)
             where y.playlist_id = src.playlist_id) as listeners
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

-- Series buckets carry their listeners' sketch ('mins'): a bucket of fewer than 5 distinct
-- listeners merges into the next until the union of their sketches holds 5 (not the sum of their
-- counts: the same person in two buckets is one listener), and the sketches are dropped.
create or replace function public.insights_mins_json(a jsonb, b jsonb) returns jsonb
language sql immutable parallel safe set search_path = ''
as $$
  select to_jsonb(public.insights_mins(array(
    select x::bigint from jsonb_array_elements_text(coalesce(a, '[]') || coalesce(b, '[]')) x)))
$$;
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
        'mins', public.insights_mins_json(v_acc -> 'mins', v_item -> 'mins'),
        'earnings', (v_acc ->> 'earnings')::numeric + (v_item ->> 'earnings')::numeric,
        'likes', (v_acc ->> 'likes')::int + (v_item ->> 'likes')::int,
        'playlist_adds', (v_acc ->> 'playlist_adds')::int + (v_item ->> 'playlist_adds')::int);
    end if;
    -- A bucket nobody listened in reveals no one: it stands alone.
    if jsonb_array_length(coalesce(v_acc -> 'mins', '[]')) >= v_min
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
        'mins', public.insights_mins_json(v_item -> 'mins', v_acc -> 'mins'),
        'earnings', (v_item ->> 'earnings')::numeric + (v_acc ->> 'earnings')::numeric,
        'likes', (v_item ->> 'likes')::int + (v_acc ->> 'likes')::int,
        'playlist_adds', (v_item ->> 'playlist_adds')::int + (v_acc ->> 'playlist_adds')::int));
      -- Still under 5 with the one before (it had nobody): shown as fewer than 5 listeners.
      v_item := v_out -> (v_n - 1);
      if jsonb_array_length(coalesce(v_item -> 'mins', '[]')) < v_min then
        v_out := (v_out - (v_n - 1)) || jsonb_build_array(v_item || jsonb_build_object('hidden', true));
      end if;
    end if;
  end if;
  -- The sketches stay here: only the counts leave.
  return (select coalesce(jsonb_agg(x.value - 'mins' order by x.n), '[]')
            from jsonb_array_elements(v_out) with ordinality x(value, n));
end
$$;


revoke execute on function public.artist_insights(text, uuid) from public, anon;
grant execute on function public.artist_insights(text, uuid) to authenticated, service_role;
