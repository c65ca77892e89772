-- The moderation ladder's second half (issue 31; docs/trust-and-safety.md § Moderation queue,
-- § Appeals, § Decision e-mails):
--   1. moderation_mail_outbox: e-mails decided in a transaction, sent by the server afterwards
--      (server/mail/outbox.ts claims rows with `for update skip locked`: one sender per row
--      across nodes). No API role reads or writes it. (The copyright flow's `mail_outbox` of
--      20261130010000 holds its templated e-mails to claimants and uploaders; unifying the two
--      outboxes is listed in docs/trust-and-safety.md § Still to build.)
--   2. moderation_appeals: a user appeals a sanction of theirs, or the removal of a track of
--      theirs, within 30 days of the decision (spec §9 "appeals within 30 days"; DSA art. 20);
--      one appeal per decision; answered by an admin within 7 business days (the upper end of
--      §9's "response in 5-7 business days"): upheld, or overturned (the sanction is lifted, the
--      track restored).
--   3. admin_moderation_queue(): listener reports (due 24 h after filing, §9) and appeals in one
--      list sorted by deadline, with the subject user's standing beside each (admins only).
--   4. admin_sanction_from_report(): the ladder applied from a report (warning with the removal of
--      the reported track, suspension, ban) and the report closed, in one transaction.
--   5. E-mails for every decision (warning, suspension with its end, ban, lift, appeal received,
--      appeal answered), by triggers, so that no path that writes a decision can forget one.
-- Every step is in admin_audit_log (admin_sanction_user/admin_lift_sanction already write theirs).

-- ---------------------------------------------------------------------------------------------
-- 1. The outbox.
create table public.moderation_mail_outbox (
  id bigint generated always as identity primary key,
  -- The recipient: a user (their current address is read when sending) or an address.
  to_user uuid references auth.users (id) on delete cascade,
  to_email text check (char_length(to_email) <= 320),
  kind text not null check (char_length(kind) <= 60),
  subject text not null check (char_length(subject) <= 300),
  -- Plain text; `{app}` is replaced by the server's public URL when sending.
  body text not null check (char_length(body) <= 20000),
  created_at timestamptz not null default now(),
  claimed_until timestamptz,
  attempts integer not null default 0,
  sent_at timestamptz,
  last_error text check (char_length(last_error) <= 1000),
  constraint moderation_mail_outbox_recipient check ((to_user is null) <> (to_email is null))
);
create index moderation_mail_outbox_unsent_idx on public.moderation_mail_outbox (created_at) where sent_at is null;
alter table public.moderation_mail_outbox enable row level security;
revoke all on public.moderation_mail_outbox from anon, authenticated;
create policy "moderation_mail_outbox: not for banned accounts" on public.moderation_mail_outbox
  as restrictive for all to authenticated
  using ((select public.is_active_account())) with check ((select public.is_active_account()));

create or replace function public.enqueue_user_mail(p_user uuid, p_kind text, p_subject text, p_body text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.moderation_mail_outbox (to_user, kind, subject, body)
  values (p_user, p_kind, p_subject, p_body);
  -- Every node's sender listens; a node that misses it finds the row on its next sweep.
  perform pg_notify('soundloft_moderation_mail', '');
end
$$;
revoke execute on function public.enqueue_user_mail(uuid, text, text, text) from public, anon, authenticated;

-- A date as the e-mails and pages write it: '6 December 2026, 09:30 UTC'.
create or replace function public.moderation_date_text(p_at timestamptz) returns text
language sql immutable
set search_path = ''
as $$
  select to_char(p_at at time zone 'UTC', 'FMDD FMMonth YYYY, HH24:MI') || ' UTC'
$$;

-- add_business_days (20261130010000) is callable by anon and loops once per day: an argument of
-- 2147483647 days, or from 'infinity' (isodow of an infinite date is null: no day ever counts),
-- kept a connection looping (tests/security/functions.test.ts's hostile arguments hung). Bounded
-- here to 0..366 days from a finite time (every deadline of issue 31 is at most 10 business
-- days); the same definition otherwise.
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
  if p_days not between 0 and 366 then
    raise exception 'add_business_days counts 0 to 366 days forward.' using errcode = '22023';
  end if;
  if not isfinite(p_from) then
    raise exception 'add_business_days needs a finite date.' using errcode = '22023';
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

-- ---------------------------------------------------------------------------------------------
-- 2. Appeals.
create table public.moderation_appeals (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  -- The decision appealed: a sanction, or the removal of a track (the track and when it was
  -- taken down: a later removal of the same track is another decision).
  sanction_id uuid references public.account_sanctions (id) on delete cascade,
  track_id uuid references public.tracks (id) on delete cascade,
  removed_at timestamptz,
  statement text not null check (char_length(btrim(statement)) between 10 and 4000),
  status text not null default 'open' check (status in ('open', 'upheld', 'overturned')),
  due_at timestamptz not null,
  created_at timestamptz not null default now(),
  answered_at timestamptz,
  answered_by uuid references auth.users (id) on delete set null,
  answer_reason text check (char_length(answer_reason) <= 2000),
  constraint moderation_appeals_one_decision check ((sanction_id is null) <> (track_id is null)),
  constraint moderation_appeals_removal check ((track_id is null) = (removed_at is null)),
  constraint moderation_appeals_answered check ((status = 'open') = (answered_at is null))
);
-- One appeal per decision: an answered appeal is final here (the user may then go to an
-- out-of-court dispute settlement body, DSA art. 21).
create unique index moderation_appeals_sanction_idx on public.moderation_appeals (sanction_id)
  where sanction_id is not null;
create unique index moderation_appeals_removal_idx on public.moderation_appeals (track_id, removed_at)
  where track_id is not null;
create index moderation_appeals_open_idx on public.moderation_appeals (due_at) where status = 'open';
create index moderation_appeals_user_idx on public.moderation_appeals (user_id);

alter table public.moderation_appeals enable row level security;
revoke all on public.moderation_appeals from anon, authenticated;
grant select on public.moderation_appeals to authenticated;
create policy "moderation_appeals: the appellant or an admin reads" on public.moderation_appeals
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy "moderation_appeals: not for banned accounts" on public.moderation_appeals
  as restrictive for all to authenticated
  using ((select public.is_active_account())) with check ((select public.is_active_account()));

-- The caller appeals a decision about them: p_sanction (a sanction of theirs) or p_track (a track
-- of theirs that is taken down now), within 30 days of it. A suspended account may appeal (that
-- is what appeals are for); a banned one cannot sign in and appeals by e-mail (docs).
create or replace function public.file_appeal(
  p_statement text, p_sanction uuid default null, p_track uuid default null
) returns public.moderation_appeals
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_decided_at timestamptz;
  v_removed_at timestamptz;
  v_row public.moderation_appeals;
begin
  perform public.refuse_sanctioned_caller('listen');
  if v_user is null then
    raise exception 'Sign in to appeal.' using errcode = '42501';
  end if;
  if (p_sanction is null) = (p_track is null) then
    raise exception 'Appeal one decision: a sanction or a removed track.' using errcode = 'P0001';
  end if;
  if coalesce(char_length(btrim(p_statement)), 0) not between 10 and 4000 then
    raise exception 'Say why in 10 to 4000 characters.' using errcode = 'P0001';
  end if;
  if p_sanction is not null then
    select s.created_at into v_decided_at from public.account_sanctions s
    where s.id = p_sanction and s.user_id = v_user and s.lifted_at is null;
  else
    select t.taken_down_at into v_removed_at from public.tracks t
    where t.id = p_track and t.uploaded_by = v_user and t.taken_down_at is not null
      and t.hidden_by_sanction is null;
    v_decided_at := v_removed_at;
  end if;
  if v_decided_at is null then
    raise exception 'No such decision to appeal.' using errcode = 'P0001';
  end if;
  if public.app_clock() > v_decided_at + interval '30 days' then
    raise exception 'The 30 days to appeal this decision are over.' using errcode = 'P0001';
  end if;
  if exists (select 1 from public.moderation_appeals a
             where a.sanction_id = p_sanction or (a.track_id = p_track and a.removed_at = v_removed_at)) then
    raise exception 'This decision has already been appealed.' using errcode = 'P0001';
  end if;
  insert into public.moderation_appeals (user_id, sanction_id, track_id, removed_at, statement, due_at)
  values (v_user, p_sanction, p_track, v_removed_at, btrim(p_statement),
          public.add_business_days(public.app_clock(), 7))
  returning * into v_row;
  -- The user's own step, in the same log as the admins' (actor = the user).
  perform public.audit_admin_action('appeal.file', 'moderation_appeals', v_row.id::text, null,
    to_jsonb(v_row));
  return v_row;
end
$$;
revoke execute on function public.file_appeal(text, uuid, uuid) from public, anon;
grant execute on function public.file_appeal(text, uuid, uuid) to authenticated;

-- An admin answers an open appeal: 'uphold' keeps the decision, 'overturn' lifts the sanction
-- (admin_lift_sanction: a ban's tracks and withdrawals are released there) or restores the track;
-- a warning's removed tracks (named in its audit row) are restored with it.
create or replace function public.admin_answer_appeal(p_appeal uuid, p_decision text, p_reason text)
returns public.moderation_appeals
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_before public.moderation_appeals;
  v_row public.moderation_appeals;
  v_sanction public.account_sanctions;
begin
  if not public.is_admin() then
    raise exception 'Only admins answer appeals.' using errcode = '42501';
  end if;
  if p_decision is null or p_decision not in ('uphold', 'overturn') then
    raise exception 'An appeal is upheld or overturned.' using errcode = 'P0001';
  end if;
  if coalesce(char_length(btrim(p_reason)), 0) not between 1 and 2000 then
    raise exception 'Give the reason (up to 2000 characters).' using errcode = 'P0001';
  end if;
  select * into v_before from public.moderation_appeals a where a.id = p_appeal for update;
  if not found then
    raise exception 'No such appeal.' using errcode = 'P0001';
  end if;
  if v_before.status <> 'open' then
    raise exception 'This appeal has already been answered.' using errcode = 'P0001';
  end if;
  if p_decision = 'overturn' then
    if v_before.sanction_id is not null then
      select * into v_sanction from public.account_sanctions s where s.id = v_before.sanction_id;
      if v_sanction.lifted_at is null then
        perform public.admin_lift_sanction(v_sanction.id, 'Appeal overturned: ' || btrim(p_reason));
      end if;
      if v_sanction.kind = 'warning' then
        update public.tracks t set taken_down_at = null, takedown_reason = null
        where t.uploaded_by = v_sanction.user_id and t.taken_down_at is not null
          and t.hidden_by_sanction is null
          and t.id in (select (jsonb_array_elements_text(l.after -> 'track_ids'))::uuid
                       from public.admin_audit_log l
                       where l.action = 'account.warning' and l.target_id = v_sanction.id::text);
      end if;
    else
      update public.tracks t set taken_down_at = null, takedown_reason = null
      where t.id = v_before.track_id and t.taken_down_at = v_before.removed_at;
      perform public.audit_admin_action('track.restore', 'tracks', v_before.track_id::text,
        jsonb_build_object('taken_down_at', v_before.removed_at),
        jsonb_build_object('taken_down_at', null, 'appeal_id', v_before.id));
    end if;
  end if;
  update public.moderation_appeals a
     set status = case p_decision when 'uphold' then 'upheld' else 'overturned' end,
         answered_at = now(), answered_by = auth.uid(), answer_reason = btrim(p_reason)
   where a.id = p_appeal
  returning * into v_row;
  perform public.audit_admin_action('appeal.' || p_decision, 'moderation_appeals', v_row.id::text,
    to_jsonb(v_before), to_jsonb(v_row));
  return v_row;
end
$$;
revoke execute on function public.admin_answer_appeal(uuid, text, text) from public, anon;
grant execute on function public.admin_answer_appeal(uuid, text, text) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- 4. The ladder from a report. A report acted on with a sanction is 'actioned' (or 'taken_down'
-- when its track is down afterwards: a warning with removal, a ban).
alter table public.track_reports drop constraint track_reports_status_check;
alter table public.track_reports add constraint track_reports_status_check
  check (status in ('open', 'dismissed', 'taken_down', 'actioned'));

create or replace function public.admin_sanction_from_report(
  p_report uuid, p_kind text, p_reason text, p_days integer default null, p_remove_track boolean default false
) returns public.account_sanctions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_report public.track_reports;
  v_uploader uuid;
  v_sanction public.account_sanctions;
  v_down boolean;
begin
  if not public.is_admin() then
    raise exception 'Only admins can sanction accounts.' using errcode = '42501';
  end if;
  select * into v_report from public.track_reports r where r.id = p_report for update;
  if not found then
    raise exception 'No such report.' using errcode = 'P0001';
  end if;
  if v_report.status <> 'open' then
    raise exception 'This report has already been handled.' using errcode = 'P0001';
  end if;
  select t.uploaded_by into v_uploader from public.tracks t where t.id = v_report.track_id;
  if v_uploader is null then
    raise exception 'This track has no uploader to sanction.' using errcode = 'P0001';
  end if;
  v_sanction := public.admin_sanction_user(v_uploader, p_kind, p_reason, p_days,
    case when coalesce(p_remove_track, false) then array[v_report.track_id] else '{}'::uuid[] end);
  select t.taken_down_at is not null into v_down from public.tracks t where t.id = v_report.track_id;
  update public.track_reports r
     set status = case when v_down then 'taken_down' else 'actioned' end,
         resolved_at = now(), resolved_by = auth.uid()
   where r.track_id = v_report.track_id and r.status = 'open';
  perform public.audit_admin_action('report.sanction', 'track_reports', v_report.id::text,
    jsonb_build_object('status', 'open'),
    jsonb_build_object('status', case when v_down then 'taken_down' else 'actioned' end,
                       'sanction_id', v_sanction.id));
  return v_sanction;
end
$$;
revoke execute on function public.admin_sanction_from_report(uuid, text, text, integer, boolean) from public, anon;
grant execute on function public.admin_sanction_from_report(uuid, text, text, integer, boolean) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- 3. The queue. One row per item: its kind ('report', 'notice', 'appeal'), status ('open' or
-- 'closed'), deadline and whether it is overdue (by app_clock(), the copyright flow's clock),
-- what it is about, and the subject user's standing (warnings, restriction, copyright strikes).
-- A copyright notice is open while an admin or a deadline still has to act: received or
-- acknowledged (due: removal_due, 5 business days) and counter-noticed (due: restore_due,
-- 10 business days); its actions are on its own page (/admin/copyright/<id>).
create or replace function public.admin_moderation_queue(
  p_kind text default null, p_status text default 'open', p_overdue boolean default false,
  p_limit integer default 100
) returns table (
  kind text, id uuid, status text, detail_status text, created_at timestamptz, due_at timestamptz,
  overdue boolean, title text, reason text, note text, track_id uuid, subject_user uuid,
  subject_name text, subject_restriction text, subject_suspended_until timestamptz,
  subject_warnings integer, subject_strikes integer, sanction_id uuid, sanction_kind text
)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Only admins read the moderation queue.' using errcode = '42501';
  end if;
  if p_kind is not null and p_kind not in ('report', 'notice', 'appeal') then
    raise exception 'Filter by report, notice or appeal.' using errcode = 'P0001';
  end if;
  if coalesce(p_status, 'open') not in ('open', 'closed', 'all') then
    raise exception 'Filter by open, closed or all.' using errcode = 'P0001';
  end if;
  if p_limit is not null and p_limit not between 1 and 500 then
    raise exception 'List 1 to 500 items.' using errcode = 'P0001';
  end if;
  return query
  with items as (
    select 'report'::text as kind, r.id, case when r.status = 'open' then 'open' else 'closed' end as status,
           r.status as detail_status, r.created_at, r.created_at + interval '24 hours' as due_at,
           coalesce(t.title || ' — ' || t.artist, 'Deleted track') as title, r.reason, r.note,
           r.track_id, t.uploaded_by as subject_user, null::uuid as sanction_id, null::text as sanction_kind
    from public.track_reports r left join public.tracks t on t.id = r.track_id
    union all
    select 'notice', n.id,
           case when n.status in ('received', 'acknowledged', 'counter_noticed') then 'open' else 'closed' end,
           n.status, n.received_at,
           case when n.status = 'counter_noticed' then n.restore_due else n.removal_due end,
           'Copyright notice by ' || n.claimant_name || ' (' || cardinality(n.track_ids)
             || case when cardinality(n.track_ids) = 1 then ' track)' else ' tracks)' end,
           n.work_description, '', n.track_ids[1], n.uploader_id, null::uuid, null::text
    from public.copyright_notices n
    union all
    select 'appeal', a.id, case when a.status = 'open' then 'open' else 'closed' end, a.status,
           a.created_at, a.due_at,
           case when a.sanction_id is not null then 'Appeal against a ' || s.kind
                else 'Appeal against the removal of ' || coalesce(t.title, 'a track') end,
           coalesce(s.reason, t.takedown_reason, ''), a.statement, a.track_id, a.user_id,
           a.sanction_id, s.kind
    from public.moderation_appeals a
    left join public.account_sanctions s on s.id = a.sanction_id
    left join public.tracks t on t.id = a.track_id
  )
  select i.kind, i.id, i.status, i.detail_status, i.created_at, i.due_at,
         i.status = 'open' and i.due_at < public.app_clock(), i.title, i.reason, i.note, i.track_id,
         i.subject_user, p.name, public.account_restriction(i.subject_user),
         public.suspended_until(i.subject_user),
         (select count(*)::integer from public.account_sanctions w
          where w.user_id = i.subject_user and w.kind = 'warning' and w.lifted_at is null),
         (select count(*)::integer from public.copyright_strikes c
          where c.user_id = i.subject_user and c.lifted_at is null),
         i.sanction_id, i.sanction_kind
  from items i left join public.profiles p on p.id = i.subject_user
  where (p_kind is null or i.kind = p_kind)
    and (coalesce(p_status, 'open') = 'all' or i.status = coalesce(p_status, 'open'))
    and (not coalesce(p_overdue, false) or (i.status = 'open' and i.due_at < public.app_clock()))
  order by i.due_at, i.id
  limit coalesce(p_limit, 100);
end
$$;
revoke execute on function public.admin_moderation_queue(text, text, boolean, integer) from public, anon;
grant execute on function public.admin_moderation_queue(text, text, boolean, integer) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- 5. The e-mails.
create or replace function public.mail_sanction_decision() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_appeal text := E'\n\nYou can appeal this decision within 30 days: {app}/appeals';
begin
  if tg_op = 'INSERT' then
    if new.kind = 'warning' then
      perform public.enqueue_user_mail(new.user_id, 'sanction.warning',
        'A warning on your Soundloft account',
        'Your account has received a warning for breaking our Community Guidelines.'
        || E'\n\nReason: ' || new.reason
        || coalesce(E'\n\nRemoved: ' || (
             select string_agg('"' || t.title || '"', ', ' order by t.title) from public.tracks t
             where t.uploaded_by = new.user_id and t.taken_down_at >= new.created_at
               and t.takedown_reason = new.reason and t.hidden_by_sanction is null) || '.', '')
        || E'\n\nA further violation can lead to a suspension of 7 to 30 days, then to a permanent ban.'
        || v_appeal);
    elsif new.kind = 'suspension' then
      perform public.enqueue_user_mail(new.user_id, 'sanction.suspension',
        'Your Soundloft account is suspended until ' || public.moderation_date_text(new.ends_at),
        'Your account is suspended until ' || public.moderation_date_text(new.ends_at) || '.'
        || E'\n\nReason: ' || new.reason
        || E'\n\nUntil then you can sign in and listen, but you cannot upload, edit or withdraw.'
        || ' The suspension ends by itself at that time.' || v_appeal);
    else
      perform public.enqueue_user_mail(new.user_id, 'sanction.ban',
        'Your Soundloft account is banned',
        'Your account is permanently banned. You can no longer sign in, your tracks are hidden'
        || ' and your pending earnings are frozen.'
        || E'\n\nReason: ' || new.reason
        || E'\n\nYou can appeal this decision within 30 days by replying to community@soundloft.app'
        || ' from the address of your account.');
    end if;
  elsif old.lifted_at is null and new.lifted_at is not null then
    perform public.enqueue_user_mail(new.user_id, 'sanction.lift',
      'Your Soundloft ' || new.kind || ' has been lifted',
      'The ' || new.kind || ' on your account has been lifted.'
      || E'\n\nReason: ' || coalesce(new.lift_reason, ''));
  end if;
  return null;
end
$$;
revoke execute on function public.mail_sanction_decision() from public, anon, authenticated;
-- Deferred to the commit: a warning's removal of tracks happens after its row is inserted.
create constraint trigger account_sanctions_mail after insert or update of lifted_at
  on public.account_sanctions deferrable initially deferred
  for each row execute function public.mail_sanction_decision();

create or replace function public.mail_appeal_step() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform public.enqueue_user_mail(new.user_id, 'appeal.received',
      'We received your appeal',
      'We received your appeal and will answer it by ' || public.moderation_date_text(new.due_at) || '.'
      || E'\n\nYour statement: ' || new.statement
      || E'\n\nFollow it at {app}/appeals');
  elsif old.status = 'open' and new.status <> 'open' then
    perform public.enqueue_user_mail(new.user_id, 'appeal.answered',
      case new.status when 'overturned' then 'Your appeal was successful'
                      else 'Your appeal was rejected' end,
      case new.status
        when 'overturned' then 'We reviewed your appeal and overturned the decision: '
          || case when new.sanction_id is not null then 'the sanction is lifted.'
                  else 'your track is restored.' end
        else 'We reviewed your appeal and upheld the decision.' end
      || E'\n\nReason: ' || coalesce(new.answer_reason, '')
      || case when new.status = 'upheld'
              then E'\n\nYou may refer the decision to a certified out-of-court dispute settlement body.'
              else '' end);
  end if;
  return null;
end
$$;
revoke execute on function public.mail_appeal_step() from public, anon, authenticated;
-- Deferred too, so that the e-mails of one transaction go out in the order of its steps.
create constraint trigger moderation_appeals_mail after insert or update of status
  on public.moderation_appeals deferrable initially deferred
  for each row execute function public.mail_appeal_step();
