-- Copyright notice and counter-notice (issue 31, spec §4 'Copyright flow', §9 Legal; DMCA
-- 17 U.S.C. §512(c)(3), §512(g)(2)-(3); DSA art. 16, 17, 20). The schema; the flows (submit,
-- acknowledge, remove, counter-notify, restore, legal action, reject) are security definer
-- functions of 20261130011000_copyright_flow.sql. Rules and sources: docs/trust-and-safety.md.
--
-- - A claimant's form names one or more tracks; the tracks of one uploader make one notice
--   (several tracks = one notice), a submission naming tracks of two uploaders makes one notice
--   per uploader (same submission_id): each uploader is told and counter-notifies for their own.
-- - The claimant's private contact (email, address, phone) is in copyright_notice_contacts,
--   readable by admins only: the uploader reads the notice but never the contact (§512(g)(2)(A)
--   asks to tell the uploader of the removal, not to give out the claimant's address).
-- - Deadlines are computed from public.app_clock() (now() plus a test offset, below) with
--   public.add_business_days (weekends and public.business_holidays skipped).

-- ---------------------------------------------------------------------------------------------
-- The test clock: now() plus an offset that only the server's own connection can set (no grant to
-- any API role). Tests and the dev-only endpoint POST /_dev/clock move time forward without
-- sleeping; server/production-check.ts refuses to start production with a non-zero offset.
create table public.app_clock_offset (
  id boolean primary key default true check (id),
  offset_by interval not null default '0'
);
insert into public.app_clock_offset (id, offset_by) values (true, '0');
alter table public.app_clock_offset enable row level security;
revoke all on public.app_clock_offset from anon, authenticated;

create or replace function public.app_clock() returns timestamptz
language sql stable
security definer
set search_path = ''
as $$
  select now() + coalesce((select o.offset_by from public.app_clock_offset o where o.id), '0')
$$;
revoke execute on function public.app_clock() from public;
grant execute on function public.app_clock() to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Business days. A business day is Monday to Friday (UTC calendar date) that is not in
-- business_holidays. The holidays are the US federal holidays (5 U.S.C. §6103): the DMCA's
-- "business days" (§512(g)(2)(B)-(C)) are US ones. Seeded for 2026–2028; an admin adds years
-- (insert as the server) before they start — docs/trust-and-safety.md § Business days.
create table public.business_holidays (
  day date primary key,
  name text not null check (char_length(name) between 1 and 100)
);
alter table public.business_holidays enable row level security;
revoke all on public.business_holidays from anon, authenticated;
grant select on public.business_holidays to anon, authenticated;
create policy "business_holidays: everyone reads" on public.business_holidays
  for select to anon, authenticated using (true);
insert into public.business_holidays (day, name) values
  ('2026-01-01', 'New Year''s Day'), ('2026-01-19', 'Martin Luther King Jr. Day'),
  ('2026-02-16', 'Washington''s Birthday'), ('2026-05-25', 'Memorial Day'),
  ('2026-06-19', 'Juneteenth'), ('2026-07-03', 'Independence Day (observed)'),
  ('2026-09-07', 'Labor Day'), ('2026-10-12', 'Columbus Day'),
  ('2026-11-11', 'Veterans Day'), ('2026-11-26', 'Thanksgiving Day'),
  ('2026-12-25', 'Christmas Day'),
  ('2027-01-01', 'New Year''s Day'), ('2027-01-18', 'Martin Luther King Jr. Day'),
  ('2027-02-15', 'Washington''s Birthday'), ('2027-05-31', 'Memorial Day'),
  ('2027-06-18', 'Juneteenth (observed)'), ('2027-07-05', 'Independence Day (observed)'),
  ('2027-09-06', 'Labor Day'), ('2027-10-11', 'Columbus Day'),
  ('2027-11-11', 'Veterans Day'), ('2027-11-25', 'Thanksgiving Day'),
  ('2027-12-24', 'Christmas Day (observed)'), ('2027-12-31', 'New Year''s Day (observed)'),
  ('2028-01-17', 'Martin Luther King Jr. Day'), ('2028-02-21', 'Washington''s Birthday'),
  ('2028-05-29', 'Memorial Day'), ('2028-06-19', 'Juneteenth'),
  ('2028-07-04', 'Independence Day'), ('2028-09-04', 'Labor Day'),
  ('2028-10-09', 'Columbus Day'), ('2028-11-10', 'Veterans Day (observed)'),
  ('2028-11-23', 'Thanksgiving Day'), ('2028-12-25', 'Christmas Day');

-- p_from plus p_days business days: the same UTC time of day on the p_days-th business day after
-- p_from's date (p_from's own date never counts, whatever its kind). p_days >= 0.
create or replace function public.add_business_days(p_from timestamptz, p_days integer)
returns timestamptz
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_day date := (p_from at time zone 'UTC')::date;
  v_left integer := p_days;
begin
  if p_from is null or p_days is null then
    return null;
  end if;
  if p_days < 0 then
    raise exception 'add_business_days counts forward only.' using errcode = '22023';
  end if;
  while v_left > 0 loop
    v_day := v_day + 1;
    if extract(isodow from v_day) < 6
       and not exists (select 1 from public.business_holidays h where h.day = v_day) then
      v_left := v_left - 1;
    end if;
  end loop;
  return ((v_day + (p_from at time zone 'UTC')::time) at time zone 'UTC');
end
$$;
revoke execute on function public.add_business_days(timestamptz, integer) from public;
grant execute on function public.add_business_days(timestamptz, integer) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Notices.
create table public.copyright_notices (
  id uuid primary key default gen_random_uuid(),
  -- One claimant's form; tracks of several uploaders make one notice each.
  submission_id uuid not null,
  uploader_id uuid references auth.users (id) on delete set null,
  track_ids uuid[] not null check (cardinality(track_ids) between 1 and 50),
  claimant_name text not null check (char_length(btrim(claimant_name)) between 1 and 200),
  -- The copyrighted work claimed to be infringed (§512(c)(3)(A)(ii)).
  work_description text not null check (char_length(btrim(work_description)) between 1 and 5000),
  -- "I have a good faith belief that use of the material ... is not authorized" (§512(c)(3)(A)(v)).
  good_faith_statement boolean not null check (good_faith_statement),
  -- "The information is accurate, and under penalty of perjury, I am authorized" (§512(c)(3)(A)(vi)).
  accuracy_statement boolean not null check (accuracy_statement),
  -- Physical or electronic signature (§512(c)(3)(A)(i)): the typed full name.
  signature text not null check (char_length(btrim(signature)) between 1 and 200),
  status text not null default 'received' check (status in (
    'received', 'acknowledged', 'removed', 'counter_noticed', 'restored', 'legal_action', 'rejected')),
  received_at timestamptz not null default public.app_clock(),
  -- Spec §9: acknowledgement within 24–48 hours (sent at once; this is the outer bound).
  acknowledge_due timestamptz not null,
  acknowledged_at timestamptz,
  -- Spec §9: removal within 5 business days of receipt.
  removal_due timestamptz not null,
  removed_at timestamptz,
  -- The uploader's counter-notice (copyright_counter_notices) was received.
  counter_at timestamptz,
  -- §512(g)(2)(C), spec §9: restored 10 business days after the counter-notice unless legal action.
  restore_due timestamptz,
  legal_action_at timestamptz,
  legal_action_note text check (char_length(legal_action_note) <= 2000),
  restored_at timestamptz,
  rejected_at timestamptz,
  -- The admin who took the notice's last decision (remove, reject, restore, legal action); null
  -- when the deadline job did it.
  decided_by uuid references auth.users (id) on delete set null,
  decision_reason text check (char_length(decision_reason) <= 2000),
  updated_at timestamptz not null default now(),
  constraint copyright_notices_counter_needs_removal check (counter_at is null or removed_at is not null),
  constraint copyright_notices_restore_due check ((counter_at is null) = (restore_due is null))
);
create index copyright_notices_status_idx on public.copyright_notices (status, received_at);
create index copyright_notices_uploader_idx on public.copyright_notices (uploader_id, received_at desc);
create index copyright_notices_submission_idx on public.copyright_notices (submission_id);
-- The deadline job's two scans.
create index copyright_notices_removal_due_idx on public.copyright_notices (removal_due)
  where status in ('received', 'acknowledged');
create index copyright_notices_restore_due_idx on public.copyright_notices (restore_due)
  where status = 'counter_noticed';

alter table public.copyright_notices enable row level security;
revoke all on public.copyright_notices from anon, authenticated;
grant select on public.copyright_notices to authenticated;
create policy "copyright_notices: the uploader and admins read" on public.copyright_notices
  for select to authenticated
  using (uploader_id = (select auth.uid()) or (select public.is_admin()));

-- The claimant's private contact: admins only (never the uploader, never the public).
create table public.copyright_notice_contacts (
  notice_id uuid primary key references public.copyright_notices (id) on delete cascade,
  email text not null check (char_length(email) between 3 and 320 and email like '%_@_%'),
  address text check (char_length(address) <= 500),
  phone text check (char_length(phone) <= 50)
);
alter table public.copyright_notice_contacts enable row level security;
revoke all on public.copyright_notice_contacts from anon, authenticated;
grant select on public.copyright_notice_contacts to authenticated;
create policy "copyright_notice_contacts: admins read" on public.copyright_notice_contacts
  for select to authenticated using ((select public.is_admin()));

-- The uploader's counter-notice (§512(g)(3)): one per notice.
create table public.copyright_counter_notices (
  id uuid primary key default gen_random_uuid(),
  notice_id uuid not null unique references public.copyright_notices (id) on delete cascade,
  uploader_id uuid not null references auth.users (id) on delete cascade,
  full_name text not null check (char_length(btrim(full_name)) between 1 and 200),
  address text not null check (char_length(btrim(address)) between 1 and 500),
  phone text check (char_length(phone) <= 50),
  email text not null check (char_length(email) between 3 and 320 and email like '%_@_%'),
  -- Why the uploader believes the removal was a mistake or misidentification.
  explanation text not null check (char_length(btrim(explanation)) between 1 and 5000),
  -- "under penalty of perjury ... a good faith belief that the material was removed or disabled
  -- as a result of mistake or misidentification" (§512(g)(3)(C)).
  good_faith_mistake boolean not null check (good_faith_mistake),
  -- Consent to the jurisdiction of the Federal District Court and to accept service (§512(g)(3)(D)).
  consent_to_jurisdiction boolean not null check (consent_to_jurisdiction),
  signature text not null check (char_length(btrim(signature)) between 1 and 200),
  created_at timestamptz not null default public.app_clock()
);
create index copyright_counter_notices_uploader_idx on public.copyright_counter_notices (uploader_id);
alter table public.copyright_counter_notices enable row level security;
revoke all on public.copyright_counter_notices from anon, authenticated;
grant select on public.copyright_counter_notices to authenticated;
create policy "copyright_counter_notices: the uploader and admins read" on public.copyright_counter_notices
  for select to authenticated
  using (uploader_id = (select auth.uid()) or (select public.is_admin()));

-- Repeat infringers (§512(i)(1)(A)): each upheld notice is one strike on the uploader, made when
-- the tracks are removed; lifted when they are restored after a counter-notice (the notice was
-- not upheld). Active strikes: lifted_at is null. copyright_strike_count() counts them.
create table public.copyright_strikes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  notice_id uuid not null unique references public.copyright_notices (id) on delete cascade,
  created_at timestamptz not null default public.app_clock(),
  lifted_at timestamptz,
  lift_reason text check (char_length(lift_reason) <= 2000)
);
create index copyright_strikes_user_idx on public.copyright_strikes (user_id) where lifted_at is null;
alter table public.copyright_strikes enable row level security;
revoke all on public.copyright_strikes from anon, authenticated;
grant select on public.copyright_strikes to authenticated;
create policy "copyright_strikes: the user and admins read" on public.copyright_strikes
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));

-- Active strikes of a user: the user themselves and admins; anyone else gets null.
create or replace function public.copyright_strike_count(p_user uuid) returns integer
language sql stable
security definer
set search_path = ''
as $$
  select case when p_user = auth.uid() or public.is_admin() then
    (select count(*)::integer from public.copyright_strikes s where s.user_id = p_user and s.lifted_at is null)
  end
$$;
revoke execute on function public.copyright_strike_count(uuid) from public, anon;
grant execute on function public.copyright_strike_count(uuid) to authenticated, service_role;

-- A track removed by a notice carries it, so that restoring the notice restores exactly those
-- (a track already taken down for another reason keeps that reason).
alter table public.tracks
  add column hidden_by_notice uuid references public.copyright_notices (id) on delete set null;
create index tracks_hidden_by_notice_idx on public.tracks (hidden_by_notice) where hidden_by_notice is not null;

-- ---------------------------------------------------------------------------------------------
-- Outgoing mail written by the database (acknowledgements, removal and forwarding notices), sent
-- by the server (server/copyright/mail-outbox.ts) through the mail module: the row commits with
-- the step that needs it, any node sends it (claimed with for update skip locked), sent_at marks
-- it done. No grant to any API role.
create table public.mail_outbox (
  id bigint generated always as identity primary key,
  template text not null check (char_length(template) between 1 and 60),
  to_email text not null check (char_length(to_email) between 3 and 320),
  params jsonb not null default '{}',
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  sent_at timestamptz
);
create index mail_outbox_pending_idx on public.mail_outbox (next_attempt_at) where sent_at is null;
alter table public.mail_outbox enable row level security;
revoke all on public.mail_outbox from anon, authenticated;

-- Banned: nothing through RLS (as every RLS table of public, 20261129170000_account_sanctions.sql).
do $$
declare
  r text;
begin
  foreach r in array array['app_clock_offset', 'business_holidays', 'copyright_notices',
    'copyright_notice_contacts', 'copyright_counter_notices', 'copyright_strikes', 'mail_outbox']
  loop
    execute format(
      'create policy %I on public.%I as restrictive for all to authenticated '
      'using ((select public.is_active_account())) with check ((select public.is_active_account()))',
      r || ': not for banned accounts', r);
  end loop;
end
$$;
