-- The copyright flow (issue 31) on the schema of 20261130010000_copyright_notices.sql: every step
-- a security definer function that checks who calls it, moves the notice's status under a row
-- lock, writes the admin audit log (who, what, when, why) and queues its e-mails in mail_outbox
-- in the same transaction. Deadlines come from app_clock(); copyright_tick() applies the due
-- ones (any node, any number of times: idempotent). Rules and sources: docs/trust-and-safety.md.

-- Rate limit of the public notice form, in auth.rate_limits (shared by every node): per client
-- IP and per claimant address, 10 notices an hour each.
create or replace function public.copyright_submit_notice(
  p_claimant_name text, p_email text, p_address text, p_phone text, p_work text,
  p_track_ids uuid[], p_good_faith boolean, p_accuracy boolean, p_signature text, p_client_ip text
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_submission uuid := gen_random_uuid();
  v_wait integer;
  v_now timestamptz := public.app_clock();
  v_uploader record;
  v_notice public.copyright_notices;
  v_ids uuid[] := '{}';
  v_tracks jsonb := '[]';
  v_email text := lower(btrim(p_email));
begin
  if coalesce(cardinality(p_track_ids), 0) not between 1 and 50 then
    raise exception 'Name between 1 and 50 tracks.' using errcode = 'P0001';
  end if;
  if not coalesce(p_good_faith, false) or not coalesce(p_accuracy, false) then
    raise exception 'Both statements are required.' using errcode = 'P0001';
  end if;
  if exists (select 1 from unnest(p_track_ids) i where not exists (
               select 1 from public.tracks t where t.id = i)) then
    raise exception 'One of the tracks does not exist.' using errcode = 'P0001';
  end if;
  v_wait := auth.rate_limit_take(
    array['copyright_notice:ip:' || coalesce(nullif(btrim(p_client_ip), ''), 'unknown'),
          'copyright_notice:email:' || v_email],
    array[10, 10], 3600000);
  if v_wait > 0 then
    raise exception 'Too many notices: try again in % minutes.', ceil(v_wait / 60.0)
      using errcode = 'PT429';
  end if;
  for v_uploader in
    select t.uploaded_by as id, array_agg(t.id order by t.title, t.id) as track_ids,
           jsonb_agg(jsonb_build_object('id', t.id, 'title', t.title, 'artist', t.artist)
                     order by t.title, t.id) as tracks
    from public.tracks t where t.id = any (p_track_ids)
    group by t.uploaded_by order by t.uploaded_by
  loop
    insert into public.copyright_notices (
      submission_id, uploader_id, track_ids, claimant_name, work_description,
      good_faith_statement, accuracy_statement, signature, received_at, acknowledge_due, removal_due)
    values (v_submission, v_uploader.id, v_uploader.track_ids, btrim(p_claimant_name), btrim(p_work),
      p_good_faith, p_accuracy, btrim(p_signature), v_now, v_now + interval '48 hours',
      public.add_business_days(v_now, 5))
    returning * into v_notice;
    insert into public.copyright_notice_contacts (notice_id, email, address, phone)
    values (v_notice.id, v_email, nullif(btrim(p_address), ''), nullif(btrim(p_phone), ''));
    perform public.audit_admin_action('copyright.notice_received', 'copyright_notices',
      v_notice.id::text, null, to_jsonb(v_notice));
    v_ids := v_ids || v_notice.id;
    v_tracks := v_tracks || v_uploader.tracks;
  end loop;
  insert into public.mail_outbox (template, to_email, params)
  values ('copyright_acknowledgement', v_email, jsonb_build_object(
    'notice_ids', to_jsonb(v_ids), 'claimant_name', btrim(p_claimant_name),
    'work', btrim(p_work), 'tracks', v_tracks, 'received_at', v_now,
    'removal_due', public.add_business_days(v_now, 5)));
  return jsonb_build_object('submission_id', v_submission, 'notice_ids', to_jsonb(v_ids),
    'received_at', v_now, 'removal_due', public.add_business_days(v_now, 5));
end
$$;
revoke execute on function public.copyright_submit_notice(text, text, text, text, text, uuid[], boolean, boolean, text, text)
  from public, anon, authenticated;
grant execute on function public.copyright_submit_notice(text, text, text, text, text, uuid[], boolean, boolean, text, text)
  to service_role;

-- The notice's tracks (id, title, artist) for e-mails.
create or replace function public.copyright_notice_tracks(p_notice public.copyright_notices) returns jsonb
language sql stable
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', t.id, 'title', t.title, 'artist', t.artist)
                            order by t.title, t.id), '[]')
  from public.tracks t where t.id = any (p_notice.track_ids)
$$;
revoke execute on function public.copyright_notice_tracks(public.copyright_notices) from public, anon, authenticated;

-- Queues a mail to the uploader of a notice (their account address).
create or replace function public.copyright_mail_uploader(
  p_notice public.copyright_notices, p_template text, p_extra jsonb default '{}'
) returns void
language sql
set search_path = ''
as $$
  insert into public.mail_outbox (template, to_email, params)
  select p_template, u.email, jsonb_build_object(
    'notice_id', p_notice.id, 'claimant_name', p_notice.claimant_name,
    'work', p_notice.work_description, 'tracks', public.copyright_notice_tracks(p_notice),
    'received_at', p_notice.received_at, 'removed_at', p_notice.removed_at,
    'restore_due', p_notice.restore_due, 'reason', p_notice.decision_reason) || p_extra
  from auth.users u where u.id = p_notice.uploader_id and u.email is not null
$$;
revoke execute on function public.copyright_mail_uploader(public.copyright_notices, text, jsonb) from public, anon, authenticated;

-- Queues a mail to the claimant of a notice.
create or replace function public.copyright_mail_claimant(
  p_notice public.copyright_notices, p_template text, p_extra jsonb default '{}'
) returns void
language sql
set search_path = ''
as $$
  insert into public.mail_outbox (template, to_email, params)
  select p_template, c.email, jsonb_build_object(
    'notice_id', p_notice.id, 'claimant_name', p_notice.claimant_name,
    'work', p_notice.work_description, 'tracks', public.copyright_notice_tracks(p_notice),
    'received_at', p_notice.received_at, 'restore_due', p_notice.restore_due,
    'reason', p_notice.decision_reason) || p_extra
  from public.copyright_notice_contacts c where c.notice_id = p_notice.id
$$;
revoke execute on function public.copyright_mail_claimant(public.copyright_notices, text, jsonb) from public, anon, authenticated;

-- Removal (internal: an admin's copyright_remove or the deadline in copyright_tick). The notice
-- row is locked by the caller and is received or acknowledged.
create or replace function public.copyright_apply_removal(p_notice uuid, p_reason text) returns public.copyright_notices
language plpgsql
set search_path = ''
as $$
declare
  v_before public.copyright_notices;
  v_row public.copyright_notices;
  v_track uuid;
begin
  select * into v_before from public.copyright_notices n where n.id = p_notice;
  for v_track in
    update public.tracks t
       set taken_down_at = now(), takedown_reason = 'Removed after a copyright notice.',
           hidden_by_notice = p_notice
     where t.id = any (v_before.track_ids) and t.taken_down_at is null
    returning t.id
  loop
    -- Listeners' mirrors drop it on their next pull (as resolve_track_report, docs/sync.md).
    insert into public.sync_deletions (table_name, row_key, visible_to) values ('tracks', v_track::text, null);
  end loop;
  update public.copyright_notices n
     set status = 'removed', removed_at = public.app_clock(), decided_by = auth.uid(),
         decision_reason = btrim(p_reason), updated_at = now()
   where n.id = p_notice
  returning * into v_row;
  -- One strike per upheld notice (§512(i)); a removed uploader-less notice has none.
  if v_row.uploader_id is not null then
    insert into public.copyright_strikes (user_id, notice_id) values (v_row.uploader_id, v_row.id)
    on conflict (notice_id) do update set lifted_at = null, lift_reason = null;
  end if;
  perform public.copyright_mail_uploader(v_row, 'copyright_removed');
  perform public.audit_admin_action('copyright.remove', 'copyright_notices', v_row.id::text,
    jsonb_build_object('status', v_before.status),
    jsonb_build_object('status', v_row.status, 'removed_at', v_row.removed_at,
                       'track_ids', to_jsonb(v_row.track_ids), 'reason', v_row.decision_reason));
  return v_row;
end
$$;
revoke execute on function public.copyright_apply_removal(uuid, text) from public, anon, authenticated;

-- Restoration (internal: an admin's copyright_restore or the deadline in copyright_tick). Restores
-- exactly the tracks this notice hid; a track also hidden by a ban stays hidden.
create or replace function public.copyright_apply_restore(p_notice uuid, p_reason text) returns public.copyright_notices
language plpgsql
set search_path = ''
as $$
declare
  v_before public.copyright_notices;
  v_row public.copyright_notices;
begin
  select * into v_before from public.copyright_notices n where n.id = p_notice;
  update public.tracks t
     set taken_down_at = case when t.hidden_by_sanction is null then null else t.taken_down_at end,
         takedown_reason = case when t.hidden_by_sanction is null then null else t.takedown_reason end,
         hidden_by_notice = null
   where t.hidden_by_notice = p_notice;
  update public.copyright_notices n
     set status = 'restored', restored_at = public.app_clock(), decided_by = auth.uid(),
         decision_reason = btrim(p_reason), updated_at = now()
   where n.id = p_notice
  returning * into v_row;
  update public.copyright_strikes s
     set lifted_at = public.app_clock(), lift_reason = btrim(p_reason)
   where s.notice_id = p_notice and s.lifted_at is null;
  perform public.copyright_mail_uploader(v_row, 'copyright_restored');
  perform public.copyright_mail_claimant(v_row, 'copyright_restored_claimant');
  perform public.audit_admin_action('copyright.restore', 'copyright_notices', v_row.id::text,
    jsonb_build_object('status', v_before.status),
    jsonb_build_object('status', v_row.status, 'restored_at', v_row.restored_at,
                       'reason', v_row.decision_reason));
  return v_row;
end
$$;
revoke execute on function public.copyright_apply_restore(uuid, text) from public, anon, authenticated;

create or replace function public.copyright_locked_notice(p_notice uuid) returns public.copyright_notices
language plpgsql
set search_path = ''
as $$
declare
  v_row public.copyright_notices;
begin
  select * into v_row from public.copyright_notices n where n.id = p_notice for update;
  if not found then
    raise exception 'No such notice.' using errcode = 'P0001';
  end if;
  return v_row;
end
$$;
revoke execute on function public.copyright_locked_notice(uuid) from public, anon, authenticated;

create or replace function public.copyright_need_admin_reason(p_reason text) returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Only admins decide copyright notices.' using errcode = '42501';
  end if;
  if coalesce(char_length(btrim(p_reason)), 0) not between 1 and 2000 then
    raise exception 'Give the reason (up to 2000 characters).' using errcode = 'P0001';
  end if;
end
$$;
revoke execute on function public.copyright_need_admin_reason(text) from public, anon, authenticated;

-- Admin: remove the tracks of a received or acknowledged notice now.
create or replace function public.copyright_remove(p_notice uuid, p_reason text) returns public.copyright_notices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.copyright_notices;
begin
  perform public.copyright_need_admin_reason(p_reason);
  v_row := public.copyright_locked_notice(p_notice);
  if v_row.status not in ('received', 'acknowledged') then
    raise exception 'Only a notice that is not yet decided can be removed.' using errcode = 'P0001';
  end if;
  return public.copyright_apply_removal(p_notice, p_reason);
end
$$;
revoke execute on function public.copyright_remove(uuid, text) from public, anon;
grant execute on function public.copyright_remove(uuid, text) to authenticated;

-- Admin: reject an incomplete or abusive notice (nothing is removed; the claimant is told why).
create or replace function public.copyright_reject(p_notice uuid, p_reason text) returns public.copyright_notices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_before public.copyright_notices;
  v_row public.copyright_notices;
begin
  perform public.copyright_need_admin_reason(p_reason);
  v_before := public.copyright_locked_notice(p_notice);
  if v_before.status not in ('received', 'acknowledged') then
    raise exception 'Only a notice that is not yet decided can be rejected.' using errcode = 'P0001';
  end if;
  update public.copyright_notices n
     set status = 'rejected', rejected_at = public.app_clock(), decided_by = auth.uid(),
         decision_reason = btrim(p_reason), updated_at = now()
   where n.id = p_notice
  returning * into v_row;
  perform public.copyright_mail_claimant(v_row, 'copyright_rejected');
  perform public.audit_admin_action('copyright.reject', 'copyright_notices', v_row.id::text,
    jsonb_build_object('status', v_before.status),
    jsonb_build_object('status', v_row.status, 'reason', v_row.decision_reason));
  return v_row;
end
$$;
revoke execute on function public.copyright_reject(uuid, text) from public, anon;
grant execute on function public.copyright_reject(uuid, text) to authenticated;

-- Admin: restore a removed or counter-noticed notice's tracks now (e.g. the claimant withdrew it,
-- or the 10 business days passed and the job has not run yet). Not after a legal action.
create or replace function public.copyright_restore(p_notice uuid, p_reason text) returns public.copyright_notices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.copyright_notices;
begin
  perform public.copyright_need_admin_reason(p_reason);
  v_row := public.copyright_locked_notice(p_notice);
  if v_row.status not in ('removed', 'counter_noticed') then
    raise exception 'Only removed tracks can be restored.' using errcode = 'P0001';
  end if;
  return public.copyright_apply_restore(p_notice, p_reason);
end
$$;
revoke execute on function public.copyright_restore(uuid, text) from public, anon;
grant execute on function public.copyright_restore(uuid, text) to authenticated;

-- Admin, on the claimant's behalf: the claimant has filed an action seeking a court order
-- (§512(g)(2)(C)) before restore_due; the tracks stay removed.
create or replace function public.copyright_record_legal_action(p_notice uuid, p_reason text) returns public.copyright_notices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_before public.copyright_notices;
  v_row public.copyright_notices;
begin
  perform public.copyright_need_admin_reason(p_reason);
  v_before := public.copyright_locked_notice(p_notice);
  if v_before.status <> 'counter_noticed' then
    raise exception 'A legal action is recorded after a counter-notice.' using errcode = 'P0001';
  end if;
  if public.app_clock() >= v_before.restore_due then
    raise exception 'The 10 business days after the counter-notice have passed.' using errcode = 'P0001';
  end if;
  update public.copyright_notices n
     set status = 'legal_action', legal_action_at = public.app_clock(),
         legal_action_note = btrim(p_reason), decided_by = auth.uid(),
         decision_reason = btrim(p_reason), updated_at = now()
   where n.id = p_notice
  returning * into v_row;
  perform public.copyright_mail_uploader(v_row, 'copyright_legal_action');
  perform public.audit_admin_action('copyright.legal_action', 'copyright_notices', v_row.id::text,
    jsonb_build_object('status', v_before.status),
    jsonb_build_object('status', v_row.status, 'legal_action_at', v_row.legal_action_at,
                       'reason', v_row.decision_reason));
  return v_row;
end
$$;
revoke execute on function public.copyright_record_legal_action(uuid, text) from public, anon;
grant execute on function public.copyright_record_legal_action(uuid, text) to authenticated;

-- The uploader's counter-notice (§512(g)(3)): only the notice's uploader, once, after removal.
-- Forwarded to the claimant at once; restore_due is 10 business days later (§512(g)(2)(C)).
-- A suspended uploader may still counter-notify (it is a defence, not an edit); a banned one not.
create or replace function public.copyright_counter_notify(
  p_notice uuid, p_full_name text, p_address text, p_phone text, p_email text, p_explanation text,
  p_good_faith_mistake boolean, p_consent_to_jurisdiction boolean, p_signature text
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
  perform public.refuse_sanctioned_caller('listen');
  if auth.uid() is null then
    raise exception 'Sign in to send a counter-notice.' using errcode = '42501';
  end if;
  select * into v_before from public.copyright_notices n where n.id = p_notice for update;
  if not found or v_before.uploader_id is distinct from auth.uid() then
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
  values (p_notice, auth.uid(), btrim(p_full_name), btrim(p_address), nullif(btrim(p_phone), ''),
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
                       'restore_due', v_row.restore_due, 'counter_notice_id', v_counter.id));
  return v_row;
end
$$;
revoke execute on function public.copyright_counter_notify(uuid, text, text, text, text, text, boolean, boolean, text)
  from public, anon;
grant execute on function public.copyright_counter_notify(uuid, text, text, text, text, text, boolean, boolean, text)
  to authenticated;

-- The deadlines (the server's job loop calls it on every pass; any node, any number of times):
-- a notice neither removed nor rejected by removal_due is removed (fail-safe: the spec's
-- "removal within 5 business days"); a counter-noticed one without a legal action by
-- restore_due is restored. Rows are claimed with skip locked: two nodes never apply one twice,
-- and the status check under the lock makes a repeat a no-op.
create or replace function public.copyright_tick() returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
  v_removed integer := 0;
  v_restored integer := 0;
begin
  for v_id in
    select n.id from public.copyright_notices n
    where n.status in ('received', 'acknowledged') and n.removal_due <= public.app_clock()
    order by n.removal_due
    for update skip locked
  loop
    perform public.copyright_apply_removal(v_id,
      'Removed automatically: the notice was not rejected within 5 business days.');
    v_removed := v_removed + 1;
  end loop;
  for v_id in
    select n.id from public.copyright_notices n
    where n.status = 'counter_noticed' and n.legal_action_at is null
      and n.restore_due <= public.app_clock()
    order by n.restore_due
    for update skip locked
  loop
    perform public.copyright_apply_restore(v_id,
      'Restored: no legal action was recorded within 10 business days of the counter-notice.');
    v_restored := v_restored + 1;
  end loop;
  return jsonb_build_object('removed', v_removed, 'restored', v_restored);
end
$$;
revoke execute on function public.copyright_tick() from public, anon, authenticated;
grant execute on function public.copyright_tick() to service_role;

-- The mail sender (server/copyright/mail-outbox.ts): claims the oldest due mail (skip locked,
-- leased for a minute), and marks it sent or failed. An acknowledgement sent acknowledges its
-- notices (acknowledged_at: when the mail left; status received → acknowledged).
create or replace function public.mail_outbox_claim() returns public.mail_outbox
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.mail_outbox;
begin
  select * into v_row from public.mail_outbox m
  where m.sent_at is null and m.next_attempt_at <= now() and m.attempts < 10
  order by m.next_attempt_at, m.id
  limit 1
  for update skip locked;
  if not found then
    return null;
  end if;
  update public.mail_outbox m
     set attempts = m.attempts + 1, next_attempt_at = now() + interval '1 minute'
   where m.id = v_row.id
  returning * into v_row;
  return v_row;
end
$$;
revoke execute on function public.mail_outbox_claim() from public, anon, authenticated;

create or replace function public.mail_outbox_done(p_id bigint, p_error text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.mail_outbox;
  v_id uuid;
begin
  if p_error is not null then
    update public.mail_outbox m
       set last_error = left(p_error, 1000),
           next_attempt_at = now() + make_interval(secs => least(3600, 30 * power(2, m.attempts)))
     where m.id = p_id;
    return;
  end if;
  update public.mail_outbox m set sent_at = now(), last_error = null
   where m.id = p_id and m.sent_at is null
  returning * into v_row;
  if found and v_row.template = 'copyright_acknowledgement' then
    for v_id in
      -- An admin may have removed or rejected it before the mail left: the time is recorded,
      -- the status moves only from received.
      update public.copyright_notices n
         set status = case when n.status = 'received' then 'acknowledged' else n.status end,
             acknowledged_at = public.app_clock(), updated_at = now()
       where n.id in (select (jsonb_array_elements_text(v_row.params -> 'notice_ids'))::uuid)
         and n.acknowledged_at is null
      returning n.id
    loop
      perform public.audit_admin_action('copyright.acknowledge', 'copyright_notices', v_id::text,
        null, jsonb_build_object('acknowledged_at', public.app_clock(), 'mail_outbox_id', p_id));
    end loop;
  end if;
end
$$;
revoke execute on function public.mail_outbox_done(bigint, text) from public, anon, authenticated;
