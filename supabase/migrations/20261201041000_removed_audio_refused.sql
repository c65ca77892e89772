-- A removed track's audio is refused even through what was handed out before the removal
-- (docs/trust-and-safety.md § copyright: "cannot be streamed or downloaded (offline copies stop
-- playing at their next check)"). Signing already asks the storage policies (a taken-down track
-- is invisible to listeners, so may_fetch_original / may_fetch_quality / may_play_track refuse),
-- but a signed URL is a bearer token until it expires: the storage server now asks this
-- function on every read through one, so a URL minted before a copyright removal, a takedown or
-- a ban stops working at once. And renew_track_downloads (the offline client's check) ends the
-- caller's downloads of such tracks.

-- Is the object of a signed read the audio of a track that is taken down, for a reader who is
-- neither its uploader nor an admin? The original (tracks bucket: a track's audio_url names it),
-- a rendition (renditions/<track id>/…) or a stem (stems/<track id>/…). p_reader: the `sub` of
-- the signed token (null: signed by anon or the service role). The server's own connection calls
-- it (no grant to API roles).
create or replace function public.signed_audio_withdrawn(p_bucket text, p_name text, p_reader uuid)
returns boolean
language sql stable
set search_path = ''
as $$
  select exists (
    select 1 from public.tracks t
     where t.taken_down_at is not null
       and (
         (p_bucket = 'tracks' and public.track_audio_object(t.audio_url) = p_name)
         or (p_bucket in ('renditions', 'stems')
             and (storage.foldername(p_name))[1] = t.id::text)
       )
       and t.uploaded_by is distinct from p_reader
       and not exists (select 1 from public.admins a where a.user_id = p_reader)
  )
$$;
revoke execute on function public.signed_audio_withdrawn(text, text, uuid) from public, anon, authenticated;

-- The offline client's check (20261127100000, with the argument guard of 20261129160000 and the
-- sanction line of 20261129180000): also
-- ends the caller's downloads of tracks taken down since (not their own), whatever the plan.
create or replace function public.renew_track_downloads(device_id text default null)
returns setof public.track_downloads
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_device text := nullif(left(btrim(renew_track_downloads.device_id), 200), '');
begin
  perform public.refuse_sanctioned_caller('listen');
  perform public.require_argument((device_id is null or char_length(device_id) <= 200), 'device_id must be at most 200 characters.');
  if v_user is null then
    raise exception 'Auth session missing!' using errcode = '42501';
  end if;
  delete from public.track_downloads d
   using public.tracks t
   where d.user_id = v_user and (v_device is null or d.device_id = v_device)
     and t.id = d.track_id and t.taken_down_at is not null and t.uploaded_by <> v_user;
  if public.plan_allows_offline(v_user) then
    update public.track_downloads d
       set checked_at = now(), valid_until = now() + public.offline_download_validity()
     where d.user_id = v_user and (v_device is null or d.device_id = v_device);
  else
    delete from public.track_downloads d
     where d.user_id = v_user and (v_device is null or d.device_id = v_device);
  end if;
  return query
    select d.* from public.track_downloads d
     where d.user_id = v_user and (v_device is null or d.device_id = v_device)
     order by d.downloaded_at, d.track_id;
end
$$;
revoke execute on function public.renew_track_downloads(text) from public, anon;
grant execute on function public.renew_track_downloads(text) to authenticated, service_role;
