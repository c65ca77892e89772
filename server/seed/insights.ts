/**
 * The demo catalogue's insights (docs/insights.md, docs/seed.md): the seeded plays exist only
 * as figures (tracks.plays and monthly ledger entries, server/seed/earnings.ts), so their
 * listens are written as the worker's daily roll-ups would have left them — per track and day:
 * counted plays and their earnings, listeners, likes, playlist adds, listens with a plausible
 * listen-through (a fifth skip within 30 s, about half play to the end, the rest drop off along
 * the way) and a few seeks to the middle of the track, where the listens came from, and
 * anonymous listener keys for the unique-listener counts (random ids: no account is behind
 * them). Every day before today is marked rolled up; today is the live part.
 */
import type { Queryable } from '../db/database';
import { playsByMonth } from './earnings';
import type { SeedPlan } from './plan';
import { Prng } from './prng';

const DAY_MS = 86_400_000;

interface DayRow {
  track: string;
  day: string;
  plays: number;
}

/** Each track's seeded plays per UTC day before today: the monthly shares spread over their days. */
export function seededDailyPlays(plan: SeedPlan): DayRow[] {
  const today = Date.UTC(plan.now.getUTCFullYear(), plan.now.getUTCMonth(), plan.now.getUTCDate());
  const rows: DayRow[] = [];
  for (const t of plan.tracks) {
    if (!t.processed) continue;
    const random = new Prng(`insights:${t.title}`);
    const release = Date.UTC(
      t.releasedAt.getUTCFullYear(),
      t.releasedAt.getUTCMonth(),
      t.releasedAt.getUTCDate(),
    );
    for (const month of playsByMonth(t.plays, t.releasedAt, plan.now)) {
      const first = Math.max(
        release,
        Date.UTC(month.at.getUTCFullYear(), month.at.getUTCMonth(), 1),
        today - 365 * DAY_MS,
      );
      const end = Math.min(
        today,
        Date.UTC(month.at.getUTCFullYear(), month.at.getUTCMonth() + 1, 1),
      );
      const days = Math.round((end - first) / DAY_MS);
      if (days <= 0) continue;
      const weights = Array.from({ length: days }, () => random.range(0.5, 1.5));
      const total = weights.reduce((a, b) => a + b, 0);
      let given = 0;
      weights.forEach((w, i) => {
        const plays = i === days - 1 ? month.plays - given : Math.floor((month.plays * w) / total);
        given += plays;
        if (plays > 0)
          rows.push({
            track: t.id,
            day: new Date(first + i * DAY_MS).toISOString().slice(0, 10),
            plays,
          });
      });
    }
  }
  return rows;
}

export async function writeSeedInsights(tx: Queryable, plan: SeedPlan): Promise<void> {
  const rows = seededDailyPlays(plan);
  if (rows.length === 0) return;
  // Per track and day, from its plays (p) and the track's length (d); a stable pseudo-random
  // figure r in [0, 1) per row varies the shares.
  await tx.query(
    `with x as (
       select x.track_id, x.day, x.plays as p, greatest(t.duration, 31) as d, t.uploaded_by as artist,
              (abs(hashtext(x.track_id::text || x.day::text)) % 1000) / 1000.0 as r
         from unnest($1::uuid[], $2::date[], $3::int[]) as x(track_id, day, plays)
         join public.tracks t on t.id = x.track_id
     ), y as (
       select x.*, ceil(x.p * 1.3)::int as n, least(x.p, greatest(1, round(x.p * (0.55 + 0.2 * x.r))))::int as listeners
         from x
     ), f as (
       -- F(x): how many of the n listens end before second x: 20 % within 30 s, 30 % along
       -- the way, the rest play to the end; bin x holds floor(F(x + 1)) - floor(F(x)).
       select y.*, s, floor(case when s <= 30 then y.n * 0.2 * s / 30
                                 else y.n * (0.2 + 0.3 * (s - 30) / (y.d - 30)) end)::int as cum
         from y, generate_series(0, y.d) s
     ), g as (
       select f.*, lead(f.cum) over (partition by f.track_id, f.day order by f.s) as next from f
     ), h as (
       select g.track_id, g.day, g.p, g.d, g.artist, g.r, g.n, g.listeners,
              array_agg(case when g.s < g.d then g.next - g.cum else g.n - g.cum end
                        order by g.s) as reach,
              max(g.cum) filter (where g.s = 29) as skips
         from g
        group by g.track_id, g.day, g.p, g.d, g.artist, g.r, g.n, g.listeners
     )
     insert into public.insights_daily
       (track_id, artist_id, day, plays, listeners, earnings, likes, playlist_adds, listens, skips,
        listen_seconds, reach, seek_cover)
     select h.track_id, h.artist, h.day, h.p, h.listeners, h.p * public.play_rate_eur(),
            floor(h.p * (0.01 + 0.03 * h.r))::int, floor(h.p * (0.005 + 0.015 * (1 - h.r)))::int,
            h.n, h.skips, 0, h.reach,
            array(select case when s between h.d * 2 / 5 and h.d * 3 / 5 then ceil(h.n * 0.06)
                              else 0 end::int
                    from generate_series(0, h.d) s order by s)
       from h`,
    [rows.map((r) => r.track), rows.map((r) => r.day), rows.map((r) => r.plays)],
  );
  // Seconds listened: the reach of each listen (the histogram's weighted sum).
  await tx.query(
    `update public.insights_daily d
        set listen_seconds = (select coalesce(sum((i - 1) * d.reach[i]), 0)
                                from generate_series(1, array_length(d.reach, 1)) i)`,
  );
  // Where they came from: shares per source (a playlist: the first one that holds the track),
  // with the sketch of their listeners (random hashes: the demo's listener keys are random).
  await tx.query(
    `with r as (
       select d.track_id, d.artist_id, d.day, s.source,
              case when s.source = 'playlist' then
                (select p.id from public.playlists p where d.track_id = any (p.track_ids)
                  order by p.created_at limit 1) end as playlist_id,
              floor(d.plays * s.share)::int as plays,
              greatest(1, floor(d.listeners * s.share))::int as listeners
         from public.insights_daily d,
              (values ('explore', 0.27), ('search', 0.2), ('playlist', 0.22), ('artist_page', 0.14),
                      ('shared_link', 0.1), ('offline', 0.07)) as s(source, share)
        where floor(d.plays * s.share) > 0
     )
     insert into public.insights_sources_daily
       (track_id, artist_id, day, source, playlist_id, plays, listeners, listener_mins)
     select r.track_id, r.artist_id, r.day, r.source, r.playlist_id, r.plays, r.listeners,
            public.insights_mins(array(
              select (random() * 9e18)::bigint from generate_series(1, least(r.listeners, 5))
               where r.plays > 0))
       from r`,
  );
  // The catalogue's curve per artist and day, and a few new followers now and then.
  await tx.query(
    `insert into public.insights_artist_daily (artist_id, day, followers, reach_pct, seek_pct)
     select d.artist_id, d.day, (abs(hashtext(d.artist_id::text || d.day::text)) % 7 = 0)::int,
            public.insights_sum(public.insights_to_pct(d.reach)),
            public.insights_sum(public.insights_to_pct(d.seek_cover))
       from public.insights_daily d group by d.artist_id, d.day`,
  );
  // Anonymous listener keys: per artist about a third of its plays, each last heard on a day it
  // had plays; each track's listeners are the keys heard on its days.
  await tx.query(
    `with k as (
       select d.track_id, d.artist_id, d.day, gen_random_uuid() as key
         from public.insights_daily d, generate_series(1, greatest(1, d.listeners / 3))
     ), a as (
       insert into public.insights_artist_listeners (artist_id, listener_key, last_day)
       select artist_id, key, day from k
     )
     insert into public.insights_track_listeners (track_id, listener_key, last_day)
     select track_id, key, day from k`,
  );
  // Distinct listeners per day, week and month, per track and per artist (the demo's listeners
  // come back: a week counts about 60 % of its days' listeners, a month 40 %), with random
  // sketches (the demo's listener keys are random).
  await tx.query(
    `with s as (
       select d.track_id as scope_id, d.day, d.listeners from public.insights_daily d
       union all
       select d.artist_id, d.day, sum(d.listeners)::int from public.insights_daily d
        group by d.artist_id, d.day
     )
     , q as (
       select s.scope_id, 'day' as per, s.day as bucket, s.listeners from s
       union all
       select s.scope_id, 'week', date_trunc('week', s.day)::date,
              greatest(max(s.listeners), (sum(s.listeners) * 0.6)::int) from s group by 1, 3
       union all
       select s.scope_id, 'month', date_trunc('month', s.day)::date,
              greatest(max(s.listeners), (sum(s.listeners) * 0.4)::int) from s group by 1, 3
     )
     insert into public.insights_bucket_listeners (scope_id, per, bucket, listeners, listener_mins)
     select q.scope_id, q.per, q.bucket, q.listeners,
            public.insights_mins(array(
              select (random() * 9e18)::bigint from generate_series(1, least(q.listeners, 5))))
       from q`,
  );
  await tx.query(
    `insert into public.insights_rollup_days (day)
     select distinct day from public.insights_daily on conflict do nothing`,
  );
  // Every day before today rolled up (the worker continues from today).
  await tx.query(
    `insert into public.insights_rollup_days (day)
     select g::date from generate_series(
       (select min(day) from public.insights_daily), $1::date - 1, interval '1 day') g
     on conflict do nothing`,
    [plan.now.toISOString().slice(0, 10)],
  );
}
