-- Action links (issue 31): a ban stops the uploader from signing in, so they could neither
-- counter-notify the notice that banned them (§512(g)) nor appeal the ban (DSA art. 20). The
-- e-mails that tell them carry a link that acts without signing in:
--   - the removal e-mail (template copyright_removed): /copyright/counter/<notice>/link#t=<token>,
--     a counter-notice to that notice;
--   - the ban e-mail: /appeals/link#t=<token>, an appeal of that ban.
-- A token is 64 hex characters from two gen_random_uuid() (244 random bits, pg_strong_random),
-- stored only as its SHA-256 in action_links, for one purpose and one decision, valid 30 days
-- (by app_clock()), used once (the counter-notice or the appeal it sends). The definer functions
-- below check it, rate-limit it (20 uses an hour per link, auth.rate_limits: every node) and
-- act as the link's user; nothing else lets a link act. Rules: docs/trust-and-safety.md
-- § Action links.

create table public.action_links (
  id uuid primary key default gen_random_uuid(),
  token_hash bytea not null unique,
  purpose text not null check (purpose in ('counter_notice', 'appeal')),
  user_id uuid not null references auth.users (id) on delete cascade,
  notice_id uuid references public.copyright_notices (id) on delete cascade,
  sanction_id uuid references public.account_sanctions (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  constraint action_links_notice check ((purpose = 'counter_notice') = (notice_id is not null)),
  constraint action_links_sanction check ((purpose = 'appeal') = (sanction_id is not null))
);
alter table public.action_links enable row level security;
revoke all on public.action_links from anon, authenticated;
create policy "action_links: not for banned accounts" on public.action_links
  as restrictive for all to authenticated
  using ((select public.is_active_account())) with check ((select public.is_active_account()));

-- Internal: a new link's token (returned once, to go into the e-mail; only its hash is kept).
create or replace function public.action_link_issue(
  p_purpose text, p_user uuid, p_notice uuid, p_sanction uuid
) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_token text := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
begin
  insert into public.action_links (token_hash, purpose, user_id, notice_id, sanction_id, expires_at)
  values (sha256(convert_to(v_token, 'UTF8')), p_purpose, p_user, p_notice, p_sanction,
          public.app_clock() + interval '30 days');
  return v_token;
end
$$;
revoke execute on function public.action_link_issue(text, uuid, uuid, uuid) from public, anon, authenticated;

-- Internal: the link of p_token for p_purpose, locked; refused when unknown, of another purpose,
-- expired, or (p_use: to act with it) used; each call counted against its rate limit.
create or replace function public.action_link_take(p_token text, p_purpose text, p_use boolean)
returns public.action_links
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_link public.action_links;
  v_wait integer;
begin
  if p_token is null or p_token !~ '^[0-9a-f]{64}$' then
    raise exception 'This link is not valid.' using errcode = '42501';
  end if;
  select * into v_link from public.action_links l
  where l.token_hash = sha256(convert_to(p_token, 'UTF8')) and l.purpose = p_purpose
  for update;
  if not found then
    raise exception 'This link is not valid.' using errcode = '42501';
  end if;
  if p_use and v_link.used_at is not null then
    raise exception 'This link has already been used.' using errcode = '42501';
  end if;
  if v_link.expires_at <= public.app_clock() then
    raise exception 'This link has expired.' using errcode = '42501';
  end if;
  v_wait := auth.rate_limit_take(array['action_link:' || v_link.id::text], array[20], 3600000);
  if v_wait > 0 then
    raise exception 'Too many tries with this link: try again in % minutes.', ceil(v_wait / 60.0)
      using errcode = 'PT429';
  end if;
  return v_link;
end
$$;
revoke execute on function public.action_link_take(text, text, boolean) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- The counter-notice, one copy: copyright_counter_notify (signed in) and the link both call it.
create or replace function public.copyright_apply_counter_notice(
  p_notice uuid, p_user uuid, p_full_name text, p_address text, p_phone text, p_email text,
  p_explanation text, p_good_faith_mistake boolean, p_consent_to_jurisdiction boolean, p_signature text,
  p_via text
) returns public.copyright_notices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_before public.copyright_notices;
  v_row public.copyright_notices;
  v_counter public.copyright_counter_notices;
begin
  select * into v_before from public.copyright_notices n where n.id = p_notice for update;
  if not found or v_before.uploader_id is distinct from p_user then
    raise exception 'No such notice.' using errcode = 'P0001';
  end if;
  if v_before.status <> 'removed' then
    raise exception 'A counter-notice is sent once, after the removal.' using errcode = 'P0001';
  end if;
  if not coalesce(p_good_faith_mistake, false) or not coalesce(p_consent_to_jurisdiction, false) then
    raise exception 'Both statements are required.' using errcode = 'P0001';
  end if;
  if coalesce(char_length(btrim(p_email)), 0) not between 3 and 320 or btrim(p_email) !~ '^[^@\s]+@[^@\s]+$' then
    raise exception 'Enter a valid email address.' using errcode = 'P0001';
  end if;
  insert into public.copyright_counter_notices (notice_id, uploader_id, full_name, address, phone,
    email, explanation, good_faith_mistake, consent_to_jurisdiction, signature, created_at)
  values (p_notice, p_user, btrim(p_full_name), btrim(p_address), nullif(btrim(p_phone), ''),
    lower(btrim(p_email)), btrim(p_explanation), p_good_faith_mistake, p_consent_to_jurisdiction,
    btrim(p_signature), public.app_clock())
  returning * into v_counter;
  update public.copyright_notices n
     set status = 'counter_noticed', counter_at = v_counter.created_at,
         restore_due = public.add_business_days(v_counter.created_at, 10), updated_at = now()
   where n.id = p_notice
  returning * into v_row;
  perform public.copyright_mail_claimant(v_row, 'copyright_counter_notice', jsonb_build_object(
    'counter', to_jsonb(v_counter) - 'uploader_id' - 'notice_id' - 'id'));
  perform public.audit_admin_action('copyright.counter_notice', 'copyright_notices', v_row.id::text,
    jsonb_build_object('status', v_before.status),
    jsonb_build_object('status', v_row.status, 'counter_at', v_row.counter_at,
                       'restore_due', v_row.restore_due, 'counter_notice_id', v_counter.id,
                       'uploader_id', p_user, 'via', p_via));
  return v_row;
end
$$;
revoke execute on function public.copyright_apply_counter_notice(uuid, uuid, text, text, text, text, text, boolean, boolean, text, text)
  from public, anon, authenticated;

-- Signed in: only the notice's uploader; a suspended one may still defend, a banned one uses the
-- link of the removal e-mail.
create or replace function public.copyright_counter_notify(
  p_notice uuid, p_full_name text, p_address text, p_phone text, p_email text, p_explanation text,
  p_good_faith_mistake boolean, p_consent_to_jurisdiction boolean, p_signature text
) returns public.copyright_notices
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.refuse_sanctioned_caller('listen');
  if auth.uid() is null then
    raise exception 'Sign in to send a counter-notice.' using errcode = '42501';
  end if;
  return public.copyright_apply_counter_notice(p_notice, auth.uid(), p_full_name, p_address,
    p_phone, p_email, p_explanation, p_good_faith_mistake, p_consent_to_jurisdiction, p_signature,
    'signed in');
end
$$;

-- By the removal e-mail's link (anyone holding it; no sign-in): that notice only, once.
create or replace function public.copyright_counter_notify_by_link(
  p_token text, p_notice uuid, p_full_name text, p_address text, p_phone text, p_email text,
  p_explanation text, p_good_faith_mistake boolean, p_consent_to_jurisdiction boolean, p_signature text
) returns public.copyright_notices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_link public.action_links := public.action_link_take(p_token, 'counter_notice', true);
  v_row public.copyright_notices;
begin
  if v_link.notice_id is distinct from p_notice then
    raise exception 'This link is not for this notice.' using errcode = '42501';
  end if;
  v_row := public.copyright_apply_counter_notice(p_notice, v_link.user_id, p_full_name, p_address,
    p_phone, p_email, p_explanation, p_good_faith_mistake, p_consent_to_jurisdiction, p_signature,
    'e-mailed link');
  update public.action_links l set used_at = now() where l.id = v_link.id;
  return v_row;
end
$$;
revoke execute on function public.copyright_counter_notify_by_link(text, uuid, text, text, text, text, text, boolean, boolean, text)
  from public;
grant execute on function public.copyright_counter_notify_by_link(text, uuid, text, text, text, text, text, boolean, boolean, text)
  to anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- The appeal, one copy: file_appeal (signed in) and the link both call it.
create or replace function public.appeal_apply(
  p_user uuid, p_statement text, p_sanction uuid, p_track uuid, p_via text
) returns public.moderation_appeals
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_decided_at timestamptz;
  v_removed_at timestamptz;
  v_row public.moderation_appeals;
begin
  if (p_sanction is null) = (p_track is null) then
    raise exception 'Appeal one decision: a sanction or a removed track.' using errcode = 'P0001';
  end if;
  if coalesce(char_length(btrim(p_statement)), 0) not between 10 and 4000 then
    raise exception 'Say why in 10 to 4000 characters.' using errcode = 'P0001';
  end if;
  if p_sanction is not null then
    select s.created_at into v_decided_at from public.account_sanctions s
    where s.id = p_sanction and s.user_id = p_user and s.lifted_at is null;
  else
    select t.taken_down_at into v_removed_at from public.tracks t
    where t.id = p_track and t.uploaded_by = p_user and t.taken_down_at is not null
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
  values (p_user, p_sanction, p_track, v_removed_at, btrim(p_statement),
          public.add_business_days(public.app_clock(), 7))
  returning * into v_row;
  -- The user's own step, in the same log as the admins' (actor = the user, or null by link).
  perform public.audit_admin_action('appeal.file', 'moderation_appeals', v_row.id::text, null,
    to_jsonb(v_row) || jsonb_build_object('via', p_via));
  return v_row;
end
$$;
revoke execute on function public.appeal_apply(uuid, text, uuid, uuid, text) from public, anon, authenticated;

create or replace function public.file_appeal(
  p_statement text, p_sanction uuid default null, p_track uuid default null
) returns public.moderation_appeals
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.refuse_sanctioned_caller('listen');
  if auth.uid() is null then
    raise exception 'Sign in to appeal.' using errcode = '42501';
  end if;
  return public.appeal_apply(auth.uid(), p_statement, p_sanction, p_track, 'signed in');
end
$$;

-- By the ban e-mail's link: that ban only, once.
create or replace function public.file_appeal_by_link(p_token text, p_sanction uuid, p_statement text)
returns public.moderation_appeals
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_link public.action_links := public.action_link_take(p_token, 'appeal', true);
  v_row public.moderation_appeals;
begin
  if v_link.sanction_id is distinct from p_sanction then
    raise exception 'This link is not for this decision.' using errcode = '42501';
  end if;
  v_row := public.appeal_apply(v_link.user_id, p_statement, p_sanction, null, 'e-mailed link');
  update public.action_links l set used_at = now() where l.id = v_link.id;
  return v_row;
end
$$;
revoke execute on function public.file_appeal_by_link(text, uuid, text) from public;
grant execute on function public.file_appeal_by_link(text, uuid, text) to anon, authenticated;

-- What a link opens (a read: allowed after its use, until it expires; counted against its rate
-- limit): its purpose and the decision as its user reads it signed in — the notice (never the
-- claimant's contact, which is another table) with its tracks, or the sanction with its appeal.
create or replace function public.action_link_open(p_token text) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_purpose text;
  v_link public.action_links;
  v_notice public.copyright_notices;
  v_sanction public.account_sanctions;
  v_appeal public.moderation_appeals;
begin
  if p_token is null or p_token !~ '^[0-9a-f]{64}$' then
    raise exception 'This link is not valid.' using errcode = '42501';
  end if;
  select l.purpose into v_purpose from public.action_links l
  where l.token_hash = sha256(convert_to(p_token, 'UTF8'));
  v_link := public.action_link_take(p_token, coalesce(v_purpose, 'appeal'), false);
  if v_link.purpose = 'counter_notice' then
    select * into v_notice from public.copyright_notices n where n.id = v_link.notice_id;
    return jsonb_build_object('purpose', v_link.purpose, 'expires_at', v_link.expires_at,
      'used', v_link.used_at is not null, 'notice', to_jsonb(v_notice),
      'tracks', public.copyright_notice_tracks(v_notice));
  end if;
  select * into v_sanction from public.account_sanctions s where s.id = v_link.sanction_id;
  select * into v_appeal from public.moderation_appeals a where a.sanction_id = v_sanction.id;
  return jsonb_build_object('purpose', v_link.purpose, 'expires_at', v_link.expires_at,
    'used', v_link.used_at is not null,
    'sanction', jsonb_build_object('id', v_sanction.id, 'kind', v_sanction.kind,
      'reason', v_sanction.reason, 'created_at', v_sanction.created_at,
      'ends_at', v_sanction.ends_at, 'lifted_at', v_sanction.lifted_at),
    'appeal', case when v_appeal.id is null then null else jsonb_build_object(
      'status', v_appeal.status, 'due_at', v_appeal.due_at, 'answer_reason', v_appeal.answer_reason) end);
end
$$;
revoke execute on function public.action_link_open(text) from public;
grant execute on function public.action_link_open(text) to anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Issuing: the removal e-mail carries a counter-notice link (params.counter_token, rendered by
-- server/copyright/mail.ts), the ban e-mail an appeal link.
create or replace function public.copyright_mail_uploader(
  p_notice public.copyright_notices, p_template text, p_extra jsonb default '{}'
) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_extra jsonb := coalesce(p_extra, '{}');
begin
  if p_template = 'copyright_removed' and p_notice.uploader_id is not null then
    v_extra := v_extra || jsonb_build_object('counter_token',
      public.action_link_issue('counter_notice', p_notice.uploader_id, p_notice.id, null));
  end if;
  insert into public.mail_outbox (template, to_email, params)
  select p_template, u.email, jsonb_build_object(
    'notice_id', p_notice.id, 'claimant_name', p_notice.claimant_name,
    'work', p_notice.work_description, 'tracks', public.copyright_notice_tracks(p_notice),
    'received_at', p_notice.received_at, 'removed_at', p_notice.removed_at,
    'restore_due', p_notice.restore_due, 'reason', p_notice.decision_reason) || v_extra
  from auth.users u where u.id = p_notice.uploader_id and u.email is not null;
end
$$;
revoke execute on function public.copyright_mail_uploader(public.copyright_notices, text, jsonb) from public, anon, authenticated;

-- The decision e-mails of 20261130020000, the ban's now with its appeal link.
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
        || E'\n\nYou can appeal this decision within 30 days, without signing in, at this link'
        || ' (for you only; do not share it): {app}/appeals/link#t='
        || public.action_link_issue('appeal', new.user_id, null, new.id));
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
