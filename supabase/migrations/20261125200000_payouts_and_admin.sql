-- Payouts and the admin dashboard (issue 16; docs/payouts.md, docs/admin.md):
--   1. Bank details checked on the server: IBAN shape and ISO 7064 mod-97 checksum, SWIFT/BIC shape.
--   2. The admin audit log: who did what, when, the row before and after.
--   3. Track reports by listeners, resolved by an admin (dismiss or take the track down).
--   4. Takedowns: columns on tracks and a RESTRICTIVE select policy (it composes with every other
--      select policy on tracks): a taken-down track is seen only by its uploader and admins, and a
--      tombstone removes it from listeners' offline mirrors on their next pull.
--   5. Withdrawal processing writes the audit log.
--   6. Reads for the screens: the artist's earnings (per day, month, track; a monthly statement)
--      and the admin's stats and artist list, counted in SQL (no catalogue download).

-- ---------------------------------------------------------------------------------------------
-- 1. Bank details. IBAN: country, check digits, 11 to 30 alphanumerics; valid when the number
-- made of BBAN + country + check digits (letters A=10 … Z=35) is 1 modulo 97. Country-specific
-- lengths are checked by the client (ibantools); the server refuses any IBAN whose checksum fails.
create or replace function public.is_valid_iban(p_iban text) returns boolean
language plpgsql
immutable
set search_path = ''
as $$
declare
  v text := upper(regexp_replace(coalesce(p_iban, ''), '\s', '', 'g'));
  v_rearranged text;
  v_digits text := '';
  v_ch text;
  v_rem integer := 0;
  i integer;
begin
  if v !~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' then
    return false;
  end if;
  v_rearranged := substr(v, 5) || substr(v, 1, 4);
  for i in 1 .. length(v_rearranged) loop
    v_ch := substr(v_rearranged, i, 1);
    if v_ch between 'A' and 'Z' then
      v_digits := v_digits || (ascii(v_ch) - 55)::text;
    else
      v_digits := v_digits || v_ch;
    end if;
  end loop;
  -- Piecewise mod 97 (the number has up to 70 digits).
  for i in 1 .. length(v_digits) loop
    v_rem := (v_rem * 10 + substr(v_digits, i, 1)::integer) % 97;
  end loop;
  return v_rem = 1;
end
$$;

-- SWIFT/BIC (ISO 9362): 4 letters bank, 2 letters country, 2 alphanumerics location, optional
-- 3 alphanumerics branch.
create or replace function public.is_valid_bic(p_bic text) returns boolean
language sql
immutable
set search_path = ''
as $$
  select upper(regexp_replace(coalesce(p_bic, ''), '\s', '', 'g'))
         ~ '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$'
$$;
grant execute on function public.is_valid_iban(text) to anon, authenticated, service_role;
grant execute on function public.is_valid_bic(text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- 2. Audit log. Written only by security definer functions and triggers; admins read it.
create table public.admin_audit_log (
  id bigint generated always as identity primary key,
  actor_id uuid references auth.users (id) on delete set null,
  action text not null check (char_length(action) <= 60),
  target_table text not null,
  target_id text not null,
  before jsonb,
  after jsonb,
  created_at timestamptz not null default now()
);
create index admin_audit_log_created_idx on public.admin_audit_log (created_at desc, id desc);
create index admin_audit_log_actor_idx on public.admin_audit_log (actor_id);

alter table public.admin_audit_log enable row level security;
revoke all on public.admin_audit_log from anon, authenticated;
grant select on public.admin_audit_log to authenticated;
create policy "admin_audit_log: admins read" on public.admin_audit_log
  for select to authenticated using ((select public.is_admin()));

create or replace function public.audit_admin_action(
  p_action text, p_table text, p_id text, p_before jsonb, p_after jsonb
) returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.admin_audit_log (actor_id, action, target_table, target_id, before, after)
  values (auth.uid(), p_action, p_table, p_id, p_before, p_after)
$$;
revoke execute on function public.audit_admin_action(text, text, text, jsonb, jsonb)
  from public, anon, authenticated;

-- Track moderation done through the REST API (update verified, delete) is logged by triggers:
-- the caller is an admin (only admins change verified; admins delete any track).
create or replace function public.tracks_audit_admin() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    return null;
  end if;
  if tg_op = 'DELETE' then
    perform public.audit_admin_action('track.delete', 'tracks', old.id::text, to_jsonb(old), null);
  elsif new.verified is distinct from old.verified then
    perform public.audit_admin_action(
      case when new.verified then 'track.approve' else 'track.mark_pending' end,
      'tracks', new.id::text,
      jsonb_build_object('verified', old.verified), jsonb_build_object('verified', new.verified));
  end if;
  return null;
end
$$;
revoke execute on function public.tracks_audit_admin() from public, anon, authenticated;
create trigger tracks_audit_admin after update of verified or delete on public.tracks
  for each row execute function public.tracks_audit_admin();

-- ---------------------------------------------------------------------------------------------
-- 4 (columns first; the report functions use them). Takedowns.
alter table public.tracks
  add column taken_down_at timestamptz,
  add column takedown_reason text check (char_length(takedown_reason) <= 1000);
-- No grant: API roles cannot write these columns; resolve_track_report() does.
-- The moderation table's order (unverified first, newest first) as an index.
create index tracks_moderation_idx on public.tracks (verified, created_at desc);

create policy "tracks: a taken-down track only for its uploader and admins" on public.tracks
  as restrictive
  for select to anon, authenticated
  using (taken_down_at is null or uploaded_by = (select auth.uid()) or (select public.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- 3. Reports.
create table public.track_reports (
  id uuid primary key default gen_random_uuid(),
  track_id uuid not null references public.tracks (id) on delete cascade,
  reporter_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  reason text not null check (reason in ('copyright', 'offensive', 'spam', 'other')),
  note text not null default '' check (char_length(note) <= 1000),
  status text not null default 'open' check (status in ('open', 'dismissed', 'taken_down')),
  resolved_at timestamptz,
  resolved_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- One open report per listener and track (reporting again while it is open changes nothing).
create unique index track_reports_one_open_idx on public.track_reports (track_id, reporter_id)
  where status = 'open';
create index track_reports_open_idx on public.track_reports (created_at) where status = 'open';
create index track_reports_reporter_idx on public.track_reports (reporter_id);
create trigger handle_timestamps before insert or update on public.track_reports
  for each row execute function public.handle_timestamps();

alter table public.track_reports enable row level security;
revoke all on public.track_reports from anon, authenticated;
grant select on public.track_reports to authenticated;
-- A listener sends the track, the reason and a note; everything else takes its default.
grant insert (track_id, reason, note) on public.track_reports to authenticated;
create policy "track_reports: a listener reports as themselves" on public.track_reports
  for insert to authenticated with check (reporter_id = (select auth.uid()) and status = 'open');
create policy "track_reports: the reporter or an admin reads" on public.track_reports
  for select to authenticated
  using (reporter_id = (select auth.uid()) or (select public.is_admin()));

-- An admin handles an open report: 'dismiss' closes it; 'take_down' takes the track down (it
-- disappears for listeners at once, a tombstone removes it from offline mirrors on the next pull,
-- the uploader sees takedown_reason) and closes every open report of that track. Audited.
create or replace function public.resolve_track_report(report_id uuid, action text, reason text default null)
returns public.track_reports
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_report public.track_reports;
  v_track public.tracks;
  v_after public.tracks;
  v_reason text;
begin
  if not public.is_admin() then
    raise exception 'Administrator access required' using errcode = '42501';
  end if;
  if action is null or action not in ('dismiss', 'take_down') then
    raise exception 'A report is dismissed or its track taken down.' using errcode = 'P0001';
  end if;
  select * into v_report from public.track_reports r where r.id = resolve_track_report.report_id for update;
  if not found then
    raise exception 'Report not found' using errcode = 'P0002';
  end if;
  if v_report.status <> 'open' then
    raise exception 'This report has already been handled.' using errcode = 'P0001';
  end if;

  if action = 'dismiss' then
    update public.track_reports r
       set status = 'dismissed', resolved_at = now(), resolved_by = auth.uid()
     where r.id = v_report.id
    returning * into v_report;
    perform public.audit_admin_action('report.dismiss', 'track_reports', v_report.id::text,
      jsonb_build_object('status', 'open'), jsonb_build_object('status', 'dismissed'));
    return v_report;
  end if;

  select * into v_track from public.tracks t where t.id = v_report.track_id for update;
  v_reason := left(coalesce(nullif(btrim(resolve_track_report.reason), ''),
    case v_report.reason
      when 'copyright' then 'Removed after a copyright complaint.'
      when 'offensive' then 'Removed for offensive content.'
      when 'spam' then 'Removed as spam.'
      else 'Removed for breaking the community guidelines.'
    end), 1000);
  if v_track.taken_down_at is null then
    update public.tracks t set taken_down_at = now(), takedown_reason = v_reason
     where t.id = v_track.id
    returning * into v_after;
    -- Listeners' mirrors drop it on their next pull; the uploader's pull reads the row again
    -- afterwards (updated_at moved), and a row read after its tombstone wins (docs/sync.md).
    insert into public.sync_deletions (table_name, row_key, visible_to) values ('tracks', v_track.id::text, null);
    perform public.audit_admin_action('track.take_down', 'tracks', v_track.id::text,
      jsonb_build_object('taken_down_at', null, 'takedown_reason', null),
      jsonb_build_object('taken_down_at', v_after.taken_down_at, 'takedown_reason', v_after.takedown_reason,
                         'report_id', v_report.id));
  end if;
  update public.track_reports r
     set status = 'taken_down', resolved_at = now(), resolved_by = auth.uid()
   where r.track_id = v_report.track_id and r.status = 'open';
  select * into v_report from public.track_reports r where r.id = resolve_track_report.report_id;
  return v_report;
end
$$;
revoke execute on function public.resolve_track_report(uuid, text, text) from public, anon;
grant execute on function public.resolve_track_report(uuid, text, text) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- 1 (cont.) and 5. request_withdrawal: same rules as 20261122000600 plus IBAN checksum and BIC
-- shape; process_withdrawal: same, plus the audit log.
create or replace function public.request_withdrawal(amount numeric, method text, details text)
returns public.withdrawals
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_balance numeric;
  v_details jsonb;
  v_row public.withdrawals;
begin
  if v_user is null then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
  if method is null or method not in ('paypal', 'bank') then
    raise exception 'Choose PayPal or bank transfer.' using errcode = 'P0001';
  end if;
  if method = 'paypal' and coalesce(btrim(details), '') !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'Please provide your PayPal email.' using errcode = 'P0001';
  end if;
  if method = 'bank' then
    begin
      v_details := details::jsonb;
    exception when others then
      v_details := null;
    end;
    if v_details is null or jsonb_typeof(v_details) <> 'object'
       or coalesce(btrim(v_details ->> 'accountName'), '') = ''
       or coalesce(btrim(v_details ->> 'iban'), '') = ''
       or coalesce(btrim(v_details ->> 'swift'), '') = '' then
      raise exception 'Please fill in all bank details.' using errcode = 'P0001';
    end if;
    if not public.is_valid_iban(v_details ->> 'iban') then
      raise exception 'Please enter a valid IBAN.' using errcode = 'P0001';
    end if;
    if not public.is_valid_bic(v_details ->> 'swift') then
      raise exception 'Please enter a valid SWIFT/BIC code.' using errcode = 'P0001';
    end if;
  end if;
  -- Lock the balance first: concurrent requests of one user run one after the other.
  select p.balance into v_balance from public.profiles p where p.id = v_user for no key update;
  if amount is null or amount < public.minimum_withdrawal_eur() or v_balance < public.minimum_withdrawal_eur() then
    raise exception 'Minimum withdrawal amount is 5 EUR.' using errcode = 'P0001';
  end if;
  if amount <> round(amount, 2) then
    raise exception 'Amounts are in whole cents.' using errcode = 'P0001';
  end if;
  if amount > v_balance then
    raise exception 'Insufficient balance.' using errcode = 'P0001';
  end if;
  insert into public.withdrawals (user_id, amount, method, details)
  values (v_user, amount, method, btrim(details))
  returning * into v_row;
  perform public.post_ledger_entry(v_user, -amount, 'withdrawal', null, null, v_row.id);
  return v_row;
end
$$;

create or replace function public.process_withdrawal(withdrawal_id uuid, status text)
returns public.withdrawals
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.withdrawals;
begin
  if not public.is_admin() and coalesce(auth.role(), '') <> 'service_role' then
    raise exception 'Administrator access required' using errcode = '42501';
  end if;
  if status is null or status not in ('completed', 'rejected') then
    raise exception 'A withdrawal is completed or rejected.' using errcode = 'P0001';
  end if;
  -- The row lock: a second admin processing the same request waits, then sees it processed.
  select * into v_row from public.withdrawals w where w.id = process_withdrawal.withdrawal_id for update;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0002';
  end if;
  if v_row.status <> 'pending' then
    raise exception 'This withdrawal has already been processed.' using errcode = 'P0001';
  end if;
  update public.withdrawals w
     set status = process_withdrawal.status, processed_at = now(), processed_by = auth.uid()
   where w.id = v_row.id
  returning * into v_row;
  if v_row.status = 'rejected' then
    perform public.post_ledger_entry(v_row.user_id, v_row.amount, 'withdrawal_reversal', null, null, v_row.id);
  end if;
  perform public.audit_admin_action(
    case when v_row.status = 'completed' then 'withdrawal.complete' else 'withdrawal.reject' end,
    'withdrawals', v_row.id::text,
    jsonb_build_object('status', 'pending', 'amount', v_row.amount, 'user_id', v_row.user_id),
    jsonb_build_object('status', v_row.status, 'amount', v_row.amount, 'user_id', v_row.user_id));
  return v_row;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- 6. Reads. The artist's own earnings, aggregated from the ledger in SQL (a play is one ledger
-- row: a year of plays is far too many rows to send). Security invoker: RLS limits the ledger to
-- the caller's own rows, and the filter on auth.uid() says so.
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
    'total_plays', (select count(*) from mine where kind = 'play'),
    'daily', coalesce((
      select jsonb_agg(jsonb_build_object('day', s.d, 'amount', coalesce(e.amount, 0), 'plays', coalesce(e.plays, 0)) order by s.d)
        from (select generate_series((select d from today) - (least(greatest(days, 1), 366) - 1), (select d from today), interval '1 day')::date as d) s
        left join (
          select (created_at at time zone 'utc')::date as d, sum(amount) as amount, count(*) as plays
            from mine where kind = 'play'
             and created_at >= ((select d from today) - (least(greatest(days, 1), 366) - 1))::timestamp at time zone 'utc'
           group by 1) e on e.d = s.d), '[]'::jsonb),
    'monthly', coalesce((
      select jsonb_agg(jsonb_build_object('month', to_char(s.m, 'YYYY-MM'), 'amount', coalesce(e.amount, 0), 'plays', coalesce(e.plays, 0)) order by s.m)
        from (select generate_series(date_trunc('month', (select d from today)) - make_interval(months => least(greatest(months, 1), 120) - 1),
                                     date_trunc('month', (select d from today)), interval '1 month')::date as m) s
        left join (
          select date_trunc('month', created_at at time zone 'utc')::date as m, sum(amount) as amount, count(*) as plays
            from mine where kind = 'play'
           group by 1) e on e.m = s.m), '[]'::jsonb),
    'tracks', coalesce((
      select jsonb_agg(jsonb_build_object('track_id', x.track_id, 'title', x.title, 'plays', x.plays, 'amount', x.amount) order by x.amount desc, x.title)
        from (
          select m.track_id, coalesce(t.title, 'Deleted track') as title, count(*) as plays, sum(m.amount) as amount
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
                 count(*) filter (where m.kind = 'play') as plays,
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

-- The admin's stat cards, counted by the database.
create or replace function public.admin_stats()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Administrator access required' using errcode = '42501';
  end if;
  return jsonb_build_object(
    'tracks', (select count(*) from public.tracks),
    'artists', (select count(distinct uploaded_by) from public.tracks),
    'pending_review', (select count(*) from public.tracks t where not t.verified and t.taken_down_at is null),
    'plays', (select coalesce(sum(plays), 0) from public.tracks),
    'pending_withdrawals', (select count(*) from public.withdrawals w where w.status = 'pending'),
    'pending_withdrawals_sum', (select coalesce(sum(amount), 0) from public.withdrawals w where w.status = 'pending'),
    'open_reports', (select count(*) from public.track_reports r where r.status = 'open')
  );
end
$$;
revoke execute on function public.admin_stats() from public, anon;
grant execute on function public.admin_stats() to authenticated;

-- The artists (users with at least one track) for the admin's cards, newest first, one page at a
-- time with the total; the e-mail is private, hence definer rights behind the admin check.
create or replace function public.admin_artists(page_size integer default 9, page_offset integer default 0)
returns table (
  id uuid, name text, email text, avatar_url text, bio text, subscription_plan text,
  followers integer, created_at timestamptz, track_count bigint, plays bigint, total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Administrator access required' using errcode = '42501';
  end if;
  return query
    with artists as (
      select t.uploaded_by as uid, count(*) as track_count, sum(t.plays)::bigint as plays
        from public.tracks t group by t.uploaded_by
    )
    select p.id, p.name, p.email, p.avatar_url, p.bio, p.subscription_plan,
           p.followers::integer, p.created_at, a.track_count, a.plays, count(*) over ()
      from artists a
      join public.profiles p on p.id = a.uid
     order by p.created_at desc, p.id
     limit least(greatest(coalesce(page_size, 9), 1), 100)
     offset greatest(coalesce(page_offset, 0), 0);
end
$$;
revoke execute on function public.admin_artists(integer, integer) from public, anon;
grant execute on function public.admin_artists(integer, integer) to authenticated;
