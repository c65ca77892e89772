-- The removal of a track by a report is e-mailed to its uploader (issue 31: "every decision
-- emailed to the user"; DSA art. 17 statement of reasons; docs/trust-and-safety.md § Decision
-- e-mails). resolve_track_report (20261125200000) as before, plus: when 'take_down' takes the
-- track down now (not when it was already down), the uploader's e-mail is queued through
-- enqueue_user_mail in the same transaction (which track, the reason, that it earns nothing while
-- removed, and the 30 days to appeal at /appeals). A dismissal mails nobody.
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
    raise exception 'Report not found' using errcode = 'PT404'; -- a client's mistake: 404 (20261127190000)
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
    if v_track.uploaded_by is not null then
      perform public.enqueue_user_mail(v_track.uploaded_by, 'report.take_down',
        'Your track "' || v_track.title || '" has been removed',
        'Your track "' || v_track.title || '" has been removed from Soundloft after a report.'
        || E'\n\nReason: ' || v_reason
        || E'\n\nWhile it is removed it is hidden from every listing, search and playlist, cannot be'
        || ' streamed or downloaded, and earns nothing.'
        || E'\n\nYou can appeal this decision within 30 days: {app}/appeals');
    end if;
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
