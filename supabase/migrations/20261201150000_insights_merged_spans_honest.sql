-- Issue 35, merged spans (docs/insights.md, Privacy):
-- * The listeners shown for a merged span (buckets of fewer than 5 listeners merged with their
--   neighbours) are the distinct listeners of the span, not the sum of its buckets' counts. Every
--   bucket of a span but at most one has fewer than 5 listeners, so its sketch (the 5 smallest
--   listener hashes) holds all of its listeners: the small buckets' union is exact. With one
--   bucket of 5 or more (B), a small bucket's listener h is in B exactly when h is in B's sketch,
--   if h is below the sketch's largest hash; above it, the sketch cannot tell. Such a span then
--   carries a bound: 'listeners' (at least) and 'listeners_max' (at most), shown as a range.
-- * A span still under 5 listeners keeps no figure in the answer (only its dates and 'hidden'),
--   and the last span under 5 merges backwards until 5 (past empty buckets), so only a window
--   of fewer than 5 listeners in all has a hidden span.
-- * The window's unique listeners are null from 1 to 4 (shown as "fewer than 5").
-- * The skip rate and the average listen time need 5 listeners (not 5 listens: one person's five
--   listens would be that person's habits), as well as 5 listens.

-- A bucket of the series as a span of one: its listeners' hashes kept whole when under 5
-- ('small'), else as one big part with its count and sketch ('bigs').
create or replace function public.insights_span_of(p_item jsonb) returns jsonb
language sql immutable parallel safe set search_path = ''
as $$
  select p_item || jsonb_build_object(
    'since', p_item -> 'bucket', 'merged', 1,
    'small', case when (p_item ->> 'listeners')::int < public.insights_min_listeners()
                  then coalesce(p_item -> 'mins', '[]') else '[]' end,
    'bigs', case when (p_item ->> 'listeners')::int < public.insights_min_listeners() then '[]'
                 else jsonb_build_array(jsonb_build_object(
                        'listeners', (p_item ->> 'listeners')::int, 'mins', p_item -> 'mins')) end)
$$;

-- Two adjacent spans as one (a before b).
create or replace function public.insights_span_join(a jsonb, b jsonb) returns jsonb
language sql immutable parallel safe set search_path = ''
as $$
  select jsonb_build_object(
    'bucket', b -> 'bucket', 'since', a -> 'since',
    'merged', (a ->> 'merged')::int + (b ->> 'merged')::int,
    'plays', (a ->> 'plays')::int + (b ->> 'plays')::int,
    'listeners', (a ->> 'listeners')::int + (b ->> 'listeners')::int,
    'mins', public.insights_mins_json(a -> 'mins', b -> 'mins'),
    'small', (a -> 'small') || (b -> 'small'),
    'bigs', (a -> 'bigs') || (b -> 'bigs'),
    'earnings', (a ->> 'earnings')::numeric + (b ->> 'earnings')::numeric,
    'likes', (a ->> 'likes')::int + (b ->> 'likes')::int,
    'playlist_adds', (a ->> 'playlist_adds')::int + (b ->> 'playlist_adds')::int)
$$;

-- A span's distinct listeners: [at least, at most] (equal when exact).
create or replace function public.insights_span_listeners(p_span jsonb) returns integer[]
language plpgsql immutable parallel safe set search_path = ''
as $$
declare
  v_small bigint[] := array(select distinct x::bigint
                              from jsonb_array_elements_text(p_span -> 'small') x);
  v_nbig integer := jsonb_array_length(p_span -> 'bigs');
  v_big jsonb;
  v_mins bigint[];
  v_top bigint;
  v_known integer;
  v_unknown integer;
begin
  if (p_span ->> 'merged')::int = 1 then
    return array[(p_span ->> 'listeners')::int, (p_span ->> 'listeners')::int];
  end if;
  if v_nbig = 0 then
    return array[cardinality(v_small), cardinality(v_small)];
  end if;
  if v_nbig > 1 then
    -- Not made by insights_merge_series (a span holds one bucket of 5 or more at most).
    return array[greatest(cardinality(v_small),
                          (select max((b ->> 'listeners')::int) from jsonb_array_elements(p_span -> 'bigs') b)),
                 cardinality(v_small) + (select sum((b ->> 'listeners')::int)::int
                                           from jsonb_array_elements(p_span -> 'bigs') b)];
  end if;
  v_big := p_span -> 'bigs' -> 0;
  v_mins := array(select x::bigint from jsonb_array_elements_text(v_big -> 'mins') x);
  -- A sketch holding as many hashes as the bucket has listeners holds the whole bucket.
  v_top := case when (v_big ->> 'listeners')::int > cardinality(v_mins)
                then (select max(m) from unnest(v_mins) m) end;
  select count(*) filter (where v_top is null or h < v_top),
         count(*) filter (where v_top is not null and h > v_top)
    into v_known, v_unknown
    from unnest(v_small) h where h <> all (v_mins);
  return array[(v_big ->> 'listeners')::int + v_known,
               (v_big ->> 'listeners')::int + v_known + v_unknown];
end
$$;

-- The series with buckets under 5 distinct listeners merged into the next (the sketches' union
-- decides, never the sum of counts); the last under 5 into the ones before it, back to 5. The
-- sketches stay here: only the counts leave, and a span still under 5 leaves without figures.
create or replace function public.insights_merge_series(p_series jsonb) returns jsonb
language plpgsql immutable
set search_path = ''
as $$
declare
  v_spans jsonb[] := '{}';
  v_acc jsonb := null;
  v_min integer := public.insights_min_listeners();
  v_item jsonb;
  v_n integer;
  v_l integer[];
  v_out jsonb := '[]';
begin
  for v_item in select value from jsonb_array_elements(p_series) loop
    v_acc := case when v_acc is null then public.insights_span_of(v_item)
                  else public.insights_span_join(v_acc, public.insights_span_of(v_item)) end;
    -- A bucket nobody listened in reveals no one: it stands alone.
    if jsonb_array_length(coalesce(v_acc -> 'mins', '[]')) >= v_min
       or ((v_acc ->> 'listeners')::int = 0 and (v_acc ->> 'plays')::int = 0) then
      v_spans := v_spans || v_acc;
      v_acc := null;
    end if;
  end loop;
  -- The tail under 5 joins the spans before it until 5 (or none is left: hidden).
  while v_acc is not null and cardinality(v_spans) > 0 loop
    v_n := cardinality(v_spans);
    v_acc := public.insights_span_join(v_spans[v_n], v_acc);
    v_spans := v_spans[1:v_n - 1];
    if jsonb_array_length(coalesce(v_acc -> 'mins', '[]')) >= v_min then
      v_spans := v_spans || v_acc;
      v_acc := null;
    end if;
  end loop;
  foreach v_item in array v_spans loop
    v_l := public.insights_span_listeners(v_item);
    v_out := v_out || jsonb_build_array(
      (v_item - 'mins' - 'small' - 'bigs' - 'listeners')
      || jsonb_build_object('listeners', v_l[1])
      || case when v_l[2] > v_l[1] then jsonb_build_object('listeners_max', v_l[2])
              else '{}'::jsonb end);
  end loop;
  if v_acc is not null then
    v_out := v_out || jsonb_build_array(jsonb_build_object(
      'bucket', v_acc -> 'bucket', 'since', v_acc -> 'since', 'merged', v_acc -> 'merged',
      'hidden', true, 'plays', null, 'listeners', null, 'earnings', null, 'likes', null,
      'playlist_adds', null));
  end if;
  return v_out;
end
$$;

-- The series' parts are artist_insights' own (through it, the definer's rights).
revoke execute on function public.insights_span_of(jsonb) from public, anon, authenticated;
revoke execute on function public.insights_span_join(jsonb, jsonb) from public, anon, authenticated;
revoke execute on function public.insights_span_listeners(jsonb) from public, anon, authenticated;

-- artist_insights as in 20261201070000_insights_at_scale.sql, but the window's listeners are null
-- from 1 to v_min - 1, and the skip rate and the average listen time need v_min listeners.
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
           'listeners', case when v_listeners >= v_min or v_listeners = 0 then v_listeners end,
           'followers', v_followers,
           'likes', coalesce(sum(d.likes), 0),
           'playlist_adds', coalesce(sum(d.playlist_adds), 0),
           'earnings', coalesce(sum(d.earnings), 0),
           'listens', coalesce(sum(d.listens), 0),
           'skip_rate', case when v_listeners >= v_min and coalesce(sum(d.listens), 0) >= v_min
                             then round(sum(d.skips) * 100.0 / greatest(sum(d.listens), 1), 1) end,
           'avg_listen_seconds', case when v_listeners >= v_min and coalesce(sum(d.listens), 0) >= v_min
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

revoke execute on function public.artist_insights(text, uuid) from public, anon;
grant execute on function public.artist_insights(text, uuid) to authenticated, service_role;
