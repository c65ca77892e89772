-- Nothing is left behind when a track is refused (issue 14, docs/upload.md):
-- 1. An artist at their monthly upload limit cannot put audio in the tracks bucket at all: a
--    restrictive insert policy on storage.objects asks the same rule the track insert enforces.
--    Storage refuses such an upload with its usual 403 ('new row violates row-level security
--    policy', as hosted Supabase Storage words every refusal by RLS); the app then asks
--    `caller_at_upload_limit()` and shows the spec's message.
-- 2. The server sweeps originals that no track points at (the lost race for the last slot, an
--    app that went away between the upload and the insert) once they are a day old; the removal
--    locks the object and looks at the tracks again, and the track insert locks the object it
--    points at, so a sweep and an insert of the same object cannot both succeed.

-- The one definition of the monthly limit: this month's uploads against the plan's
-- plans.monthly_upload_limit (null = unlimited). Null when the user has no profile.
create or replace function public.upload_limit_reached(user_id uuid) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select pl.monthly_upload_limit is not null
     and (case when p.monthly_uploads_month = date_trunc('month', now() at time zone 'utc')::date
               then p.monthly_uploads else 0 end) >= pl.monthly_upload_limit
    from public.profiles p join public.plans pl on pl.id = p.subscription_plan
   where p.id = upload_limit_reached.user_id
$$;
revoke execute on function public.upload_limit_reached(uuid) from public, anon, authenticated;
grant execute on function public.upload_limit_reached(uuid) to service_role;

-- The caller's own answer (no argument: nobody learns another user's plan or uploads).
create or replace function public.caller_at_upload_limit() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(public.upload_limit_reached(auth.uid()), true)
$$;
revoke execute on function public.caller_at_upload_limit() from public, anon;
grant execute on function public.caller_at_upload_limit() to authenticated, service_role;

-- The track insert: the same rule. The profile row lock serialises one user's concurrent
-- uploads (two racing for the last slot: one wins); the rule is read after the lock.
create or replace function public.tracks_enforce_upload_limit() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  this_month date := date_trunc('month', now() at time zone 'utc')::date;
begin
  perform 1 from public.profiles p where p.id = new.uploaded_by for update;
  if not found then
    raise exception 'Profile not found.' using errcode = '23503';
  end if;
  if public.upload_limit_reached(new.uploaded_by) then
    raise exception 'You have reached your monthly upload limit. Upgrade your plan to upload more tracks.'
      using errcode = 'P0001';
  end if;
  update public.profiles
     set monthly_uploads = case when monthly_uploads_month = this_month then monthly_uploads else 0 end + 1,
         monthly_uploads_month = this_month
   where id = new.uploaded_by;
  return new;
end
$$;

-- Audio goes into the tracks bucket only below the limit (admins and the server's own writes
-- included: service_role bypasses RLS, the seeder and renditions are not uploads).
create policy "tracks bucket: no upload beyond the monthly limit" on storage.objects
  as restrictive for insert to authenticated
  with check (bucket_id <> 'tracks' or not public.caller_at_upload_limit());

-- Does this user own this object of the tracks bucket? Now also locks it (key share) until the
-- track insert commits, so the sweep of unreferenced originals waits for the insert and then
-- sees the track; or, when the sweep came first, the insert finds no object.
create or replace function public.owns_audio_object(object_name text, uploader uuid) returns boolean
language plpgsql volatile
security definer
set search_path = ''
as $$
begin
  perform 1 from storage.objects o
   where o.bucket_id = 'tracks' and o.name = owns_audio_object.object_name
     and o.owner_id = owns_audio_object.uploader::text
     for key share;
  return found;
end
$$;
revoke execute on function public.owns_audio_object(text, uuid) from public, anon;
grant execute on function public.owns_audio_object(text, uuid) to authenticated, service_role;

