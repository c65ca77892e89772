-- The claimant records their own legal action (docs/trust-and-safety.md § The claimant's
-- legal-action link; 17 U.S.C. §512(g)(2)(C): the service provider restores unless it "receives
-- notice from the person who submitted the notification ... that such person has filed an action
-- seeking a court order"). Until now an admin recorded it on the claimant's behalf. Now the mail
-- forwarding the counter-notice carries a link with a token that:
--   * is single-purpose ('legal_action' on one notice), random (two v4 UUIDs: 244 random bits),
--   * is stored only as its SHA-256 here (the raw token is in the mail alone: the outbox drops it
--     from the row's params once the mail is sent),
--   * expires when the notice's 10 business days end (restore_due), and is used once.
-- The claimant needs no account: the two functions below are callable by anon with the token.

create table public.copyright_claimant_tokens (
  id uuid primary key default gen_random_uuid(),
  notice_id uuid not null references public.copyright_notices (id) on delete cascade,
  purpose text not null check (purpose in ('legal_action')),
  token_hash bytea not null unique check (octet_length(token_hash) = 32),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index copyright_claimant_tokens_notice_idx on public.copyright_claimant_tokens (notice_id);
alter table public.copyright_claimant_tokens enable row level security;
revoke all on public.copyright_claimant_tokens from anon, authenticated;
-- Banned: nothing through RLS (as every RLS table of public, 20261129170000_account_sanctions.sql).
create policy "copyright_claimant_tokens: not for banned accounts" on public.copyright_claimant_tokens
  as restrictive for all to authenticated
  using ((select public.is_active_account())) with check ((select public.is_active_account()));

-- Who recorded the legal action (the admin on the claimant's behalf, or the claimant by link).
alter table public.copyright_notices
  add column legal_action_by text check (legal_action_by in ('admin', 'claimant'));
update public.copyright_notices set legal_action_by = 'admin' where legal_action_at is not null;

create or replace function public.copyright_token_hash(p_token text) returns bytea
language sql immutable
set search_path = ''
as $$
  select sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
$$;
revoke execute on function public.copyright_token_hash(text) from public, anon, authenticated;

-- The forwarding mail gets its token as it is queued (any path that queues it: today
-- copyright_counter_notify): `params.action_token`, and the hash stored here.
create or replace function public.copyright_counter_notice_token() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_token text := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
  v_notice public.copyright_notices;
begin
  select * into v_notice from public.copyright_notices n
   where n.id = (new.params ->> 'notice_id')::uuid;
  if not found or v_notice.restore_due is null then
    return new;
  end if;
  insert into public.copyright_claimant_tokens (notice_id, purpose, token_hash, expires_at)
  values (v_notice.id, 'legal_action', public.copyright_token_hash(v_token), v_notice.restore_due);
  new.params := new.params || jsonb_build_object('action_token', v_token);
  return new;
end
$$;
revoke execute on function public.copyright_counter_notice_token() from public, anon, authenticated;
create trigger mail_outbox_counter_notice_token before insert on public.mail_outbox
  for each row when (new.template = 'copyright_counter_notice')
  execute function public.copyright_counter_notice_token();

-- A sent mail keeps no action token (the hash alone stays, in its table).
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
create trigger mail_outbox_forget_token before update of sent_at on public.mail_outbox
  for each row when (old.sent_at is null and new.sent_at is not null and new.params ? 'action_token')
  execute function public.mail_outbox_forget_token();

-- The token's notice, locked, if the token is valid now for p_purpose; else the one refusal
-- (never telling a wrong token from a used or expired one).
create or replace function public.copyright_token_notice(p_token text, p_purpose text, p_lock boolean)
returns public.copyright_claimant_tokens
language plpgsql
set search_path = ''
as $$
declare
  v_token public.copyright_claimant_tokens;
begin
  if p_token is null or p_token !~ '^[0-9a-f]{64}$' then
    raise exception 'This link is not valid: it may have expired or already been used.' using errcode = 'P0001';
  end if;
  if p_lock then
    select * into v_token from public.copyright_claimant_tokens t
     where t.token_hash = public.copyright_token_hash(p_token) and t.purpose = p_purpose
     for update;
  else
    select * into v_token from public.copyright_claimant_tokens t
     where t.token_hash = public.copyright_token_hash(p_token) and t.purpose = p_purpose;
  end if;
  if not found or v_token.used_at is not null or public.app_clock() >= v_token.expires_at then
    raise exception 'This link is not valid: it may have expired or already been used.' using errcode = 'P0001';
  end if;
  return v_token;
end
$$;
revoke execute on function public.copyright_token_notice(text, text, boolean) from public, anon, authenticated;

-- What the claimant's page shows: the notice, its tracks and until when they may record.
create or replace function public.copyright_claimant_legal_action_info(p_token text) returns jsonb
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_token public.copyright_claimant_tokens;
  v_notice public.copyright_notices;
begin
  v_token := public.copyright_token_notice(p_token, 'legal_action', false);
  select * into v_notice from public.copyright_notices n where n.id = v_token.notice_id;
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

-- The claimant records the action: court, case reference, statement; before restore_due only;
-- once. Same effect as the admin's copyright_record_legal_action (the track stays removed, the
-- uploader is told), audited as copyright.legal_action with by = claimant.
create or replace function public.copyright_claimant_record_legal_action(
  p_token text, p_court text, p_case_reference text, p_statement text, p_confirmed boolean,
  p_signature text
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_token public.copyright_claimant_tokens;
  v_before public.copyright_notices;
  v_row public.copyright_notices;
  v_note text;
begin
  perform public.refuse_sanctioned_caller('listen');
  v_token := public.copyright_token_notice(p_token, 'legal_action', true);
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
  v_before := public.copyright_locked_notice(v_token.notice_id);
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
  update public.copyright_claimant_tokens t set used_at = now() where t.id = v_token.id;
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

-- The admin's path marks itself.
create or replace function public.copyright_legal_action_by_admin() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.legal_action_at is not null and old.legal_action_at is null and new.legal_action_by is null then
    new.legal_action_by := 'admin';
  end if;
  return new;
end
$$;
revoke execute on function public.copyright_legal_action_by_admin() from public, anon, authenticated;
create trigger copyright_notices_legal_action_by before update of legal_action_at on public.copyright_notices
  for each row execute function public.copyright_legal_action_by_admin();
