-- One outbox for every e-mail the database decides (docs/trust-and-safety.md § The mail outbox).
-- The copyright flow (20261130010000: `mail_outbox`, a template + params rendered by the server)
-- and the moderation ladder (20261130020000: `moderation_mail_outbox`, subject + text written by
-- triggers) were built in parallel with two senders. Kept: `public.mail_outbox` and one sender
-- (server/mail/outbox.ts) with both renderers. A row is either
--   * a template (`template` = its name, `params`), rendered by the server (copyright), or
--   * a written mail (`template` = its kind, `subject` + `body`; `{app}` in the body is the
--     server's public URL),
-- to an address (`to_email`) or to a user (`to_user`: their current address, read when sent).
-- What the better of each sender had is kept: claimed in batches `for update skip locked` with a
-- lease (`next_attempt_at` moved 2 minutes ahead while a node sends; a node that dies leaves the
-- row to be claimed again), retried with exponential backoff (30 s · 2^attempts, at most an hour)
-- up to 10 attempts, a NOTIFY (`soundloft_mail_outbox`) on every insert waking the senders at
-- once, and a sweep for what a NOTIFY missed.
--
-- The one function to queue a mail: public.enqueue_mail(...) (below); enqueue_user_mail keeps
-- its signature and calls it.

alter table public.mail_outbox
  alter column to_email drop not null,
  add column to_user uuid references auth.users (id) on delete cascade,
  add column subject text check (char_length(subject) <= 300),
  add column body text check (char_length(body) <= 20000),
  add constraint mail_outbox_recipient check ((to_user is null) <> (to_email is null)),
  add constraint mail_outbox_written check ((subject is null) = (body is null));
comment on column public.mail_outbox.template is
  'The template rendered by the server (params), or the kind of a written mail (subject + body).';

-- The moderation rows move over with their state (attempts, errors, sent or not). A row that had
-- failed its 5 attempts there gets the rest of the 10 here.
insert into public.mail_outbox (template, to_user, to_email, subject, body, params, created_at,
  attempts, next_attempt_at, last_error, sent_at)
select o.kind, o.to_user, o.to_email, o.subject, o.body, '{}', o.created_at, o.attempts,
       greatest(o.created_at, coalesce(o.claimed_until, o.created_at)), o.last_error, o.sent_at
from public.moderation_mail_outbox o
order by o.id;

drop table public.moderation_mail_outbox;

-- Every insert wakes the senders (after the commit; a rolled-back step sends nothing). One
-- NOTIFY per statement.
create or replace function public.mail_outbox_notify() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_notify('soundloft_mail_outbox', '');
  return null;
end
$$;
revoke execute on function public.mail_outbox_notify() from public, anon, authenticated;
create trigger mail_outbox_notify after insert on public.mail_outbox
  for each statement execute function public.mail_outbox_notify();

-- The one way to queue a mail (in the transaction of the step that needs it): to a user
-- (p_to_user) or an address (p_to_email), exactly one; either a template with params
-- (p_subject and p_body null) or a written mail (p_subject and p_body). Returns the row's id.
create or replace function public.enqueue_mail(
  p_kind text, p_to_user uuid, p_to_email text, p_subject text, p_body text,
  p_params jsonb default '{}'
) returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id bigint;
begin
  insert into public.mail_outbox (template, to_user, to_email, subject, body, params)
  values (p_kind, p_to_user, p_to_email, p_subject, p_body, coalesce(p_params, '{}'))
  returning id into v_id;
  return v_id;
end
$$;
revoke execute on function public.enqueue_mail(text, uuid, text, text, text, jsonb) from public, anon, authenticated;

-- The moderation triggers' entry point (20261130020000), same signature.
create or replace function public.enqueue_user_mail(p_user uuid, p_kind text, p_subject text, p_body text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.enqueue_mail(p_kind, p_user, null, p_subject, p_body, '{}');
end
$$;
revoke execute on function public.enqueue_user_mail(uuid, text, text, text) from public, anon, authenticated;

-- The copyright flow's two helpers (20261130011000), through enqueue_mail; same signatures.
create or replace function public.copyright_mail_uploader(
  p_notice public.copyright_notices, p_template text, p_extra jsonb default '{}'
) returns void
language sql
set search_path = ''
as $$
  select public.enqueue_mail(p_template, null, u.email, null, null, jsonb_build_object(
    'notice_id', p_notice.id, 'claimant_name', p_notice.claimant_name,
    'work', p_notice.work_description, 'tracks', public.copyright_notice_tracks(p_notice),
    'received_at', p_notice.received_at, 'removed_at', p_notice.removed_at,
    'restore_due', p_notice.restore_due, 'reason', p_notice.decision_reason) || p_extra)
  from auth.users u where u.id = p_notice.uploader_id and u.email is not null;
$$;
revoke execute on function public.copyright_mail_uploader(public.copyright_notices, text, jsonb) from public, anon, authenticated;

create or replace function public.copyright_mail_claimant(
  p_notice public.copyright_notices, p_template text, p_extra jsonb default '{}'
) returns void
language sql
set search_path = ''
as $$
  select public.enqueue_mail(p_template, null, c.email, null, null, jsonb_build_object(
    'notice_id', p_notice.id, 'claimant_name', p_notice.claimant_name,
    'work', p_notice.work_description, 'tracks', public.copyright_notice_tracks(p_notice),
    'received_at', p_notice.received_at, 'restore_due', p_notice.restore_due,
    'reason', p_notice.decision_reason) || p_extra)
  from public.copyright_notice_contacts c where c.notice_id = p_notice.id;
$$;
revoke execute on function public.copyright_mail_claimant(public.copyright_notices, text, jsonb) from public, anon, authenticated;

-- The sender's claim: up to p_limit due rows, oldest first, each leased for 2 minutes and its
-- attempt counted; the recipient's address resolved (a user's current one). A row whose user
-- has no address comes back with a null to_email (the sender records the error).
drop function public.mail_outbox_claim();
create or replace function public.mail_outbox_claim(p_limit integer default 20)
returns table (id bigint, template text, to_email text, subject text, body text, params jsonb,
               attempts integer)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  with due as (
    select m.id from public.mail_outbox m
    where m.sent_at is null and m.next_attempt_at <= now() and m.attempts < 10
    order by m.next_attempt_at, m.id
    limit greatest(1, least(coalesce(p_limit, 20), 100))
    for update skip locked
  )
  update public.mail_outbox m
     set attempts = m.attempts + 1, next_attempt_at = now() + interval '2 minutes'
    from due
   where m.id = due.id
  returning m.id, m.template,
            coalesce(m.to_email, (select u.email from auth.users u where u.id = m.to_user))::text,
            m.subject, m.body, m.params, m.attempts;
end
$$;
revoke execute on function public.mail_outbox_claim(integer) from public, anon, authenticated;
