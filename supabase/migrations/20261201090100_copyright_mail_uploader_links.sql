-- Two branches of one session redefined copyright_mail_uploader(): 20261201031000 (action links)
-- gave the removal e-mail a counter-notice link usable without signing in (params.counter_token),
-- 20261201040000 (one outbox) queued it through enqueue_mail. This keeps both. A sent mail keeps
-- neither token (the hashes alone stay, in their tables).
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
    v_extra := v_extra || jsonb_build_object('counter_token',
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

create or replace function public.mail_outbox_forget_token() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.params := new.params - 'action_token' - 'counter_token';
  return new;
end
$$;
drop trigger mail_outbox_forget_token on public.mail_outbox;
create trigger mail_outbox_forget_token before update of sent_at on public.mail_outbox
  for each row when (old.sent_at is null and new.sent_at is not null
                     and new.params ?| array['action_token', 'counter_token'])
  execute function public.mail_outbox_forget_token();
