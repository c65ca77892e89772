-- Stems (issue 18, docs/stems.md): the `spleeter` function separates a track into vocals, drums,
-- bass and other once, on the server's job runner, and keeps the four MP3s in the private `stems`
-- bucket under the track ('<track id>/vocals.mp3', ...). Who may ask and who may read is decided
-- here: the same rule as playing the track.

-- May the caller play this track? Runs as the caller, so the track must be visible to them (every
-- select policy on tracks applies): the standard rendition by their plan (its uploader and admins
-- always), or, for earlier rows without renditions, any signed-in listener of a ready track.
create or replace function public.may_play_track(track_id uuid) returns boolean
language plpgsql stable
set search_path = ''
as $$
declare
  t record;
begin
  select tr.status, tr.qualities into t from public.tracks tr where tr.id = may_play_track.track_id;
  if not found then
    return false;
  end if;
  if public.may_fetch_quality(may_play_track.track_id::text, 'standard') then
    return true;
  end if;
  return t.status = 'ready' and t.qualities = '{}' and auth.uid() is not null;
end
$$;
grant execute on function public.may_play_track(uuid) to anon, authenticated, service_role;

-- The track an audio URL plays, as the caller sees it: any spelling the app may hold — the
-- stored 'tracks/<name>', a public, signed or authenticated storage URL of the original, or a
-- signed URL of a rendition or stem ('.../renditions/<track id>/standard.mp3?token=...').
-- No row when the URL is not a track's or the track is not visible to the caller.
create or replace function public.stems_track(audio_url text)
returns table (track_id uuid, may_play boolean)
language plpgsql stable
set search_path = ''
as $$
declare
  path text;
  m text[];
  found_id uuid;
begin
  if stems_track.audio_url is null or char_length(stems_track.audio_url) > 2048 then
    return;
  end if;
  path := split_part(split_part(stems_track.audio_url, '?', 1), '#', 1);
  m := regexp_match(path,
    '(?:^|/storage/v1/object/(?:public/|sign/|authenticated/)?)(?:renditions|stems)/'
    || '([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})/[^/]+$');
  if m is not null then
    select t.id into found_id from public.tracks t where t.id = m[1]::uuid;
  else
    m := regexp_match(path, '(?:^|/storage/v1/object/(?:public/|sign/|authenticated/)?)tracks/(.+)$');
    if m is null then
      return;
    end if;
    select t.id into found_id from public.tracks t
     where public.track_audio_object(t.audio_url) = m[1]
     order by t.created_at limit 1;
  end if;
  if found_id is null then
    return;
  end if;
  return query select found_id, public.may_play_track(found_id);
end
$$;
grant execute on function public.stems_track(text) to anon, authenticated, service_role;

-- One separation per track, ever (the stems are reused): the job row is the cache's index.
create table public.stem_jobs (
  track_id uuid primary key references public.tracks (id) on delete cascade,
  state text not null default 'queued' check (state in ('queued', 'running', 'done', 'failed')),
  progress real not null default 0 check (progress between 0 and 1),
  requested_by uuid references auth.users (id) on delete set null,
  attempts integer not null default 0 check (attempts >= 0),
  run_after timestamptz not null default now(),
  locked_by text,
  locked_at timestamptz,
  last_error text check (char_length(last_error) <= 2000),
  separator text check (separator in ('soundloft', 'external')),
  separation_ms integer check (separation_ms >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index stem_jobs_queued_idx on public.stem_jobs (run_after) where state = 'queued';
create index stem_jobs_requester_idx on public.stem_jobs (requested_by)
  where state in ('queued', 'running');
alter table public.stem_jobs enable row level security;
revoke all on public.stem_jobs from anon, authenticated;

-- A separation is asked for (by the function, with the service key, once the caller's right to
-- play the track is established as the caller). Per user at most `max_active` separations are
-- queued or running at once ('limited' beyond); a track's job is shared by everyone who asks; a
-- failed one is queued again on request until it has failed `max_attempts` times.
create or replace function public.request_stem_job(
  track_id uuid,
  user_id uuid,
  max_active integer default 2,
  max_attempts integer default 3
) returns table (state text, progress real)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_column
declare
  j public.stem_jobs;
  active integer;
begin
  -- One request of a user at a time: the bound below cannot be raced past.
  perform pg_advisory_xact_lock(hashtextextended('stem_jobs:' || request_stem_job.user_id::text, 0));
  select * into j from public.stem_jobs where track_id = request_stem_job.track_id for update;
  if found and (j.state <> 'failed' or j.attempts >= request_stem_job.max_attempts) then
    return query select j.state, j.progress;
    return;
  end if;
  select count(*) into active from public.stem_jobs
   where requested_by = request_stem_job.user_id and state in ('queued', 'running');
  if active >= request_stem_job.max_active then
    return query select 'limited'::text, 0::real;
    return;
  end if;
  insert into public.stem_jobs (track_id, requested_by)
  values (request_stem_job.track_id, request_stem_job.user_id)
  on conflict (track_id) do update
    set state = 'queued', progress = 0, requested_by = excluded.requested_by,
        run_after = now(), locked_by = null, updated_at = now()
    where public.stem_jobs.state = 'failed';
  perform pg_notify('stem_jobs', request_stem_job.track_id::text);
  return query select s.state, s.progress from public.stem_jobs s
   where s.track_id = request_stem_job.track_id;
end
$$;
revoke execute on function public.request_stem_job(uuid, uuid, integer, integer) from public, anon, authenticated;
grant execute on function public.request_stem_job(uuid, uuid, integer, integer) to service_role;

-- The stems bucket: private, MP3 only, written by the server alone (service_role); read by
-- whoever may play the track, through signed URLs the function makes as the caller.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('stems', 'stems', false, 200 * 1024 * 1024, array['audio/mpeg'])
on conflict (id) do nothing;

create policy "stems: whoever may play the track" on storage.objects
  for select to anon, authenticated
  using (
    bucket_id = 'stems'
    and case
      when (storage.foldername(name))[1] ~ '^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$'
        then public.may_play_track(((storage.foldername(name))[1])::uuid)
      else false
    end
  );

-- A deleted track's stems go with it (the server removes the queued objects).
create or replace function public.tracks_queue_stems() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.storage_garbage (bucket_id, name)
  select 'stems', old.id || '/' || s || '.mp3'
    from unnest(array['vocals', 'drums', 'bass', 'other']) s
  on conflict do nothing;
  return old;
end
$$;
create trigger tracks_queue_stems after delete on public.tracks
  for each row execute function public.tracks_queue_stems();
