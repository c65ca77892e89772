-- Plays in the earnings reads are the credited amount divided by play_rate_eur(), not a count
-- of ledger rows: every counted play is one entry of exactly that rate, but credits posted in
-- bulk (the demo seed posts one entry per track for its thousands of plays) are one row for many
-- plays. Same signatures and results otherwise as 20261125200000.
create or replace function public.my_earnings(days integer default 30, months integer default 12)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with mine as (
    select l.amount, l.kind, l.track_id, l.created_at
      from public.earnings_ledger l
     where l.user_id = (select auth.uid())
  ),
  today as (select (now() at time zone 'utc')::date as d)
  select jsonb_build_object(
    'total_earned', coalesce((select sum(amount) from mine where kind = 'play'), 0),
    'total_plays', (select coalesce(floor(sum(amount) / public.play_rate_eur()), 0)::bigint from mine where kind = 'play'),
    'daily', coalesce((
      select jsonb_agg(jsonb_build_object('day', s.d, 'amount', coalesce(e.amount, 0), 'plays', coalesce(e.plays, 0)) order by s.d)
        from (select generate_series((select d from today) - (least(greatest(days, 1), 366) - 1), (select d from today), interval '1 day')::date as d) s
        left join (
          select (created_at at time zone 'utc')::date as d, sum(amount) as amount, floor(sum(amount) / public.play_rate_eur())::bigint as plays
            from mine where kind = 'play'
             and created_at >= ((select d from today) - (least(greatest(days, 1), 366) - 1))::timestamp at time zone 'utc'
           group by 1) e on e.d = s.d), '[]'::jsonb),
    'monthly', coalesce((
      select jsonb_agg(jsonb_build_object('month', to_char(s.m, 'YYYY-MM'), 'amount', coalesce(e.amount, 0), 'plays', coalesce(e.plays, 0)) order by s.m)
        from (select generate_series(date_trunc('month', (select d from today)) - make_interval(months => least(greatest(months, 1), 120) - 1),
                                     date_trunc('month', (select d from today)), interval '1 month')::date as m) s
        left join (
          select date_trunc('month', created_at at time zone 'utc')::date as m, sum(amount) as amount, floor(sum(amount) / public.play_rate_eur())::bigint as plays
            from mine where kind = 'play'
           group by 1) e on e.m = s.m), '[]'::jsonb),
    'tracks', coalesce((
      select jsonb_agg(jsonb_build_object('track_id', x.track_id, 'title', x.title, 'plays', x.plays, 'amount', x.amount) order by x.amount desc, x.title)
        from (
          select m.track_id, coalesce(t.title, 'Deleted track') as title, floor(sum(m.amount) / public.play_rate_eur())::bigint as plays, sum(m.amount) as amount
            from mine m left join public.tracks t on t.id = m.track_id
           where m.kind = 'play'
           group by m.track_id, t.title) x), '[]'::jsonb)
  )
$$;
revoke execute on function public.my_earnings(integer, integer) from public, anon;
grant execute on function public.my_earnings(integer, integer) to authenticated;

-- A month's statement of the caller: balance at its start and end, and the entries of the month
-- grouped per UTC day, kind and track (plays summed; withdrawals and reversals one line each).
create or replace function public.my_earnings_statement(month date)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with bounds as (
    select (date_trunc('month', month)::timestamp at time zone 'utc') as s,
           ((date_trunc('month', month) + interval '1 month')::timestamp at time zone 'utc') as e
  ),
  mine as (
    select l.* from public.earnings_ledger l where l.user_id = (select auth.uid())
  )
  select jsonb_build_object(
    'month', to_char(date_trunc('month', month), 'YYYY-MM'),
    'opening_balance', coalesce((select sum(amount) from mine, bounds where created_at < bounds.s), 0),
    'closing_balance', coalesce((select sum(amount) from mine, bounds where created_at < bounds.e), 0),
    'lines', coalesce((
      select jsonb_agg(jsonb_build_object('day', x.day, 'kind', x.kind, 'track', x.track, 'method', x.method,
                                          'plays', x.plays, 'amount', x.amount) order by x.day, x.kind, x.track)
        from (
          select (m.created_at at time zone 'utc')::date as day, m.kind,
                 case when m.kind = 'play' then coalesce(t.title, 'Deleted track') end as track,
                 w.method,
                 coalesce(floor(sum(m.amount) filter (where m.kind = 'play') / public.play_rate_eur()), 0)::bigint as plays,
                 sum(m.amount) as amount
            from mine m
            cross join bounds b
            left join public.tracks t on t.id = m.track_id
            left join public.withdrawals w on w.id = m.withdrawal_id
           where m.created_at >= b.s and m.created_at < b.e
           group by 1, 2, 3, 4, case when m.kind = 'play' then null else m.id end) x), '[]'::jsonb)
  )
$$;
revoke execute on function public.my_earnings_statement(date) from public, anon;
grant execute on function public.my_earnings_statement(date) to authenticated;

