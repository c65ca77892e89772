-- One mechanism for every mailed single-use link (docs/trust-and-safety.md § Action links).
-- Two branches built the same thing in parallel: `action_links` (20261201031000: the uploader's
-- counter-notice link and the banned user's appeal link) and `copyright_claimant_tokens`
-- (20261201042000: the claimant's legal-action link). Kept: `public.action_links`, with
--   * one hash (`action_link_hash`: SHA-256 of the token's UTF-8),
--   * one issuer (`action_link_issue`: 30 days, or until a given time: the claimant's link ends at
--     the notice's restore_due),
--   * one take/validate function (`action_link_take`: purpose, expiry, single use, 20 calls an
--     hour per link in auth.rate_limits),
--   * one place for a mail's token: `mail_outbox.params.action_token`, rendered into the link
--     when the mail is sent (the template renderer, or `{action_token}` in a written mail's body)
--     and dropped from the row once it is sent (one trigger). Until now the ban mail's appeal
--     token was written into its body and stayed in the outbox for good.
-- The claimant's link has no user (the claimant has no account): user_id is null for it alone.

-- ---------------------------------------------------------------------------------------------
-- The table takes the third purpose.
alter table public.action_links
  alter column user_id drop not null,
  drop constraint action_links_purpose_check,
  drop constraint action_links_notice,
  add constraint action_links_purpose_check
    check (purpose in ('counter_notice', 'appeal', 'legal_action')),
  add constraint action_links_notice
    check ((purpose in ('counter_notice', 'legal_action')) = (notice_id is not null)),
  add constraint action_links_user check ((purpose = 'legal_action') = (user_id is null)),
  add constraint action_links_hash_length check (octet_length(token_hash) = 32);
create index action_links_notice_idx on public.action_links (notice_id) where notice_id is not null;

-- The claimant tokens move over as they are (same hash of the same token: their links still work).
insert into public.action_links (token_hash, purpose, user_id, notice_id, created_at, expires_at, used_at)
select t.token_hash, 'legal_action', null, t.notice_id, t.created_at, t.expires_at, t.used_at
from public.copyright_claimant_tokens t;

-- ---------------------------------------------------------------------------------------------
-- The one hash.
create or replace function public.action_link_hash(p_token text) returns bytea
language sql immutable
set search_path = ''
as $$
  select sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
$$;
revoke execute on function public.action_link_hash(text) from public, anon, authenticated;

-- The one issuer: a new link's token (returned once, for the mail's params.action_token; only its
-- hash is kept), valid 30 days by app_clock() unless p_expires says until when.
drop function public.action_link_issue(text, uuid, uuid, uuid);
create function public.action_link_issue(
  p_purpose text, p_user uuid, p_notice uuid, p_sanction uuid, p_expires timestamptz default null
) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_token text := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
begin
  insert into public.action_links (token_hash, purpose, user_id, notice_id, sanction_id, expires_at)
  values (public.action_link_hash(v_token), p_purpose, p_user, p_notice, p_sanction,
          coalesce(p_expires, public.app_clock() + interval '30 days'));
  return v_token;
end
$$;
revoke execute on function public.action_link_issue(text, uuid, uuid, uuid, timestamptz) from public, anon, authenticated;

-- The one take: the link of p_token for p_purpose (null: any purpose, for reading what a link
-- opens), locked; refused when unknown, of another purpose, expired, or (p_use: to act with it)
-- used; each call counted against its rate limit (20 an hour per link, on every node).
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
  where l.token_hash = public.action_link_hash(p_token)
    and (p_purpose is null or l.purpose = p_purpose)
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

-- What an uploader's or a user's link opens (20261201031000); the claimant's link opens through
-- copyright_claimant_legal_action_info instead (it shows no account's decision).
create or replace function public.action_link_open(p_token text) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_link public.action_links := public.action_link_take(p_token, null, false);
  v_notice public.copyright_notices;
  v_sanction public.account_sanctions;
  v_appeal public.moderation_appeals;
begin
  if v_link.purpose = 'counter_notice' then
    select * into v_notice from public.copyright_notices n where n.id = v_link.notice_id;
    return jsonb_build_object('purpose', v_link.purpose, 'expires_at', v_link.expires_at,
      'used', v_link.used_at is not null, 'notice', to_jsonb(v_notice),
      'tracks', public.copyright_notice_tracks(v_notice));
  elsif v_link.purpose <> 'appeal' then
    raise exception 'This link is not valid.' using errcode = '42501';
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
-- The claimant's link, on action_links. Its refusals keep their one wording (a wrong token is
-- never told from a used or expired one, 20261201042000); a rate-limited link says so.
create or replace function public.copyright_claimant_link(p_token text) returns public.action_links
language plpgsql
set search_path = ''
as $$
begin
  return public.action_link_take(p_token, 'legal_action', true);
exception when sqlstate '42501' then
  raise exception 'This link is not valid: it may have expired or already been used.' using errcode = 'P0001';
end
$$;
revoke execute on function public.copyright_claimant_link(text) from public, anon, authenticated;

-- The forwarding mail gets its link as it is queued (any path that queues it): params.action_token.
create or replace function public.copyright_counter_notice_token() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_notice public.copyright_notices;
begin
  select * into v_notice from public.copyright_notices n
   where n.id = (new.params ->> 'notice_id')::uuid;
  if not found or v_notice.restore_due is null then
    return new;
  end if;
  new.params := new.params || jsonb_build_object('action_token',
    public.action_link_issue('legal_action', null, v_notice.id, null, v_notice.restore_due));
  return new;
end
$$;
revoke execute on function public.copyright_counter_notice_token() from public, anon, authenticated;

create or replace function public.copyright_claimant_legal_action_info(p_token text) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_link public.action_links := public.copyright_claimant_link(p_token);
  v_notice public.copyright_notices;
begin
  select * into v_notice from public.copyright_notices n where n.id = v_link.notice_id;
  if v_notice.status <> 'counter_noticed' then
    raise exception 'This link is not valid: it may have expired or already been used.' using errcode = 'P0001';
  end if;
  return jsonb_build_object('notice_id', v_notice.id, 'claimant_name', v_notice.claimant_name,
    'work', v_notice.work_description, 'tracks', public.copyright_notice_tracks(v_notice),
    'counter_at', v_notice.counter_at, 'restore_due', v_notice.restore_due);
end
$$;
revoke execute on function public.copyright_claimant_legal_action_info(text) from public;
grant execute on function public.copyright_claimant_legal_action_info(text) to anon, authenticated;

create or replace function public.copyright_claimant_record_legal_action(
  p_token text, p_court text, p_case_reference text, p_statement text, p_confirmed boolean,
  p_signature text
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_link public.action_links;
  v_before public.copyright_notices;
  v_row public.copyright_notices;
  v_note text;
begin
  perform public.refuse_sanctioned_caller('listen');
  v_link := public.copyright_claimant_link(p_token);
  if coalesce(char_length(btrim(p_court)), 0) not between 2 and 300 then
    raise exception 'Name the court (2 to 300 characters).' using errcode = 'P0001';
  end if;
  if coalesce(char_length(btrim(p_case_reference)), 0) not between 2 and 200 then
    raise exception 'Enter the case reference (2 to 200 characters).' using errcode = 'P0001';
  end if;
  if coalesce(char_length(btrim(p_statement)), 0) not between 10 and 5000 then
    raise exception 'Write a statement (10 to 5000 characters).' using errcode = 'P0001';
  end if;
  if not coalesce(p_confirmed, false) then
    raise exception 'Confirm that the action was filed.' using errcode = 'P0001';
  end if;
  if coalesce(char_length(btrim(p_signature)), 0) not between 2 and 200 then
    raise exception 'Sign with your full name.' using errcode = 'P0001';
  end if;
  v_before := public.copyright_locked_notice(v_link.notice_id);
  if v_before.status <> 'counter_noticed' or public.app_clock() >= v_before.restore_due then
    raise exception 'This link is not valid: it may have expired or already been used.' using errcode = 'P0001';
  end if;
  v_note := 'Recorded by the claimant: court action filed in ' || btrim(p_court)
    || ', case ' || btrim(p_case_reference) || '. ' || btrim(p_statement)
    || ' Signed: ' || btrim(p_signature) || '.';
  update public.copyright_notices n
     set status = 'legal_action', legal_action_at = public.app_clock(), legal_action_by = 'claimant',
         legal_action_note = v_note, decision_reason = v_note, updated_at = now()
   where n.id = v_before.id
  returning * into v_row;
  update public.action_links l set used_at = now() where l.id = v_link.id;
  perform public.copyright_mail_uploader(v_row, 'copyright_legal_action');
  perform public.audit_admin_action('copyright.legal_action', 'copyright_notices', v_row.id::text,
    jsonb_build_object('status', v_before.status),
    jsonb_build_object('status', v_row.status, 'legal_action_at', v_row.legal_action_at,
                       'by', 'claimant', 'court', btrim(p_court),
                       'case_reference', btrim(p_case_reference),
                       'signature', btrim(p_signature), 'reason', v_note));
  return jsonb_build_object('notice_id', v_row.id, 'legal_action_at', v_row.legal_action_at);
end
$$;
revoke execute on function public.copyright_claimant_record_legal_action(text, text, text, text, boolean, text) from public;
grant execute on function public.copyright_claimant_record_legal_action(text, text, text, text, boolean, text) to anon, authenticated;

drop function public.copyright_token_notice(text, text, boolean);
drop function public.copyright_token_hash(text);
drop table public.copyright_claimant_tokens;

-- ---------------------------------------------------------------------------------------------
-- The removal mail's counter-notice link: params.action_token (was counter_token).
create or replace function public.copyright_mail_uploader(
  p_notice public.copyright_notices, p_template text, p_extra jsonb default '{}'
) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_extra jsonb := coalesce(p_extra, '{}');
  v_email text;
begin
  select u.email into v_email from auth.users u
   where u.id = p_notice.uploader_id and u.email is not null;
  if v_email is null then
    return;
  end if;
  if p_template = 'copyright_removed' then
    v_extra := v_extra || jsonb_build_object('action_token',
      public.action_link_issue('counter_notice', p_notice.uploader_id, p_notice.id, null));
  end if;
  perform public.enqueue_mail(p_template, null, v_email, null, null, jsonb_build_object(
    'notice_id', p_notice.id, 'claimant_name', p_notice.claimant_name,
    'work', p_notice.work_description, 'tracks', public.copyright_notice_tracks(p_notice),
    'received_at', p_notice.received_at, 'removed_at', p_notice.removed_at,
    'restore_due', p_notice.restore_due, 'reason', p_notice.decision_reason) || v_extra);
end
$$;
revoke execute on function public.copyright_mail_uploader(public.copyright_notices, text, jsonb) from public, anon, authenticated;

-- The ban mail's appeal link: the body says `{action_token}` where the token goes, the token is
-- in params (the sender renders it, server/mail/outbox.ts), so the row forgets it once sent.
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
      perform public.enqueue_mail('sanction.ban', new.user_id, null,
        'Your Soundloft account is banned',
        'Your account is permanently banned. You can no longer sign in, your tracks are hidden'
        || ' and your pending earnings are frozen.'
        || E'\n\nReason: ' || new.reason
        || E'\n\nYou can appeal this decision within 30 days, without signing in, at this link'
        || ' (for you only; do not share it): {app}/appeals/link#t={action_token}',
        jsonb_build_object('action_token',
          public.action_link_issue('appeal', new.user_id, null, new.id)));
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

-- The one "forget once sent" rule: a sent row keeps no link token (the hash alone stays, in
-- action_links). Rows queued before this migration move to the one key; ban mails written with
-- their token in the body get the placeholder (and, unsent, the token in params).
update public.mail_outbox m
   set params = (m.params - 'counter_token')
     || case when m.sent_at is null then jsonb_build_object('action_token', m.params ->> 'counter_token')
             else '{}'::jsonb end
 where m.params ? 'counter_token';
update public.mail_outbox m
   set params = m.params - 'action_token'
 where m.sent_at is not null and m.params ? 'action_token';
update public.mail_outbox m
   set params = m.params || case when m.sent_at is null then jsonb_build_object('action_token',
                  substring(m.body from '/appeals/link#t=([0-9a-f]{64})')) else '{}'::jsonb end,
       body = regexp_replace(m.body, '/appeals/link#t=[0-9a-f]{64}', '/appeals/link#t={action_token}', 'g')
 where m.body ~ '/appeals/link#t=[0-9a-f]{64}';

create or replace function public.mail_outbox_forget_token() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.params := new.params - 'action_token';
  return new;
end
$$;
revoke execute on function public.mail_outbox_forget_token() from public, anon, authenticated;
drop trigger mail_outbox_forget_token on public.mail_outbox;
create trigger mail_outbox_forget_token before update of sent_at on public.mail_outbox
  for each row when (old.sent_at is null and new.sent_at is not null and new.params ? 'action_token')
  execute function public.mail_outbox_forget_token();
