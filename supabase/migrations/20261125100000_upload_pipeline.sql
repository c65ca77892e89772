-- The upload pipeline (docs/upload.md): a track's processing status, the processing job queue,
-- waveform peaks, loudness, and the renditions each plan may fetch.

-- ---------------------------------------------------------------------------------------------
-- tracks: processing status and what processing measured. Rows that exist before this migration
-- were made by earlier code and are ready; new rows start in processing.
alter table public.tracks
  add column status text not null default 'ready'
    check (status in ('processing', 'ready', 'failed')),
  add column processing_stage text
    check (processing_stage in ('queued', 'checking', 'decoding', 'waveform', 'loudness', 'encoding')),
  add column processing_progress real check (processing_progress between 0 and 1),
  add column status_reason text check (char_length(status_reason) <= 500),
  add column loudness_lufs real,
  add column true_peak_db real,
  add column sample_rate integer check (sample_rate > 0),
  add column channels smallint check (channels > 0),
  add column original_format text check (original_format in ('mpeg', 'wav', 'ogg', 'flac')),
  add column qualities text[] not null default '{}'
    check (qualities <@ array['standard', 'high', 'lossless']);
alter table public.tracks alter column status set default 'processing';
create index tracks_audio_url_idx on public.tracks (audio_url);
create index tracks_processing_idx on public.tracks (created_at) where status <> 'ready';

-- Listeners see ready tracks only; the uploader and admins see every status. Restrictive, so it
-- narrows whatever permissive select policies exist (moderation adds its own the same way).
create policy "tracks: listeners see ready tracks" on public.tracks
  as restrictive for select to anon, authenticated
  using (status = 'ready' or uploaded_by = (select auth.uid()) or (select public.is_admin()));

-- The object name inside the tracks bucket that an audio_url points at: 'tracks/<name>' (what
-- the app sends) or the public URL form of earlier rows ('.../storage/v1/object/public/tracks/<name>').
create or replace function public.track_audio_object(audio_url text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case
    when audio_url like 'tracks/%' then substr(audio_url, 8)
    when audio_url ~ '/storage/v1/object/public/tracks/' then
      substring(audio_url from '/storage/v1/object/public/tracks/(.*)$')
    else null
  end
$$;
grant execute on function public.track_audio_object(text) to anon, authenticated, service_role;

-- Does this user own this object of the tracks bucket? (The object exists only if it passed the
-- storage checks: size and the bytes' type.)
create or replace function public.owns_audio_object(object_name text, uploader uuid) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from storage.objects o
     where o.bucket_id = 'tracks' and o.name = owns_audio_object.object_name
       and o.owner_id = owns_audio_object.uploader::text
  )
$$;
revoke execute on function public.owns_audio_object(text, uuid) from public, anon;
grant execute on function public.owns_audio_object(text, uuid) to authenticated, service_role;

-- A new track: the audio must be an object its uploader owns in the tracks bucket; what
-- processing measures is the server's, never the client's. (Security invoker: current_user is
-- the API role here.)
create or replace function public.tracks_prepare_insert() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  object_name text := public.track_audio_object(new.audio_url);
begin
  if current_user in ('anon', 'authenticated') then
    if object_name is null or not public.owns_audio_object(object_name, new.uploaded_by) then
      raise exception 'Audio file not found. Please upload it again.'
        using errcode = '23503', hint = 'Upload the audio to the tracks bucket first.';
    end if;
    new.audio_url := 'tracks/' || object_name;
    new.status := 'processing';
    new.duration := 0;
    new.loudness_lufs := null;
    new.true_peak_db := null;
    new.sample_rate := null;
    new.channels := null;
    new.original_format := null;
    new.qualities := '{}';
    new.status_reason := null;
    new.processing_progress := null;
  end if;
  if new.status = 'processing' then
    new.processing_stage := 'queued';
  end if;
  return new;
end
$$;
create trigger tracks_prepare_insert before insert on public.tracks
  for each row execute function public.tracks_prepare_insert();

-- API users cannot change an upload's audio or what processing measured. (Column grants keep the
-- new columns out of reach; duration loses its update grant; audio_url the uploader could
-- otherwise repoint.)
revoke update (duration) on public.tracks from authenticated;
create or replace function public.tracks_guard_processing() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated')
     and new.audio_url is distinct from old.audio_url then
    raise exception 'The audio of a track cannot be replaced; upload a new track instead.'
      using errcode = '42501';
  end if;
  return new;
end
$$;
create trigger tracks_guard_processing before update of audio_url on public.tracks
  for each row execute function public.tracks_guard_processing();

-- ---------------------------------------------------------------------------------------------
-- The job queue. Not part of the API: only the server's own connection reads and writes it.
create table public.track_jobs (
  track_id uuid primary key references public.tracks (id) on delete cascade,
  state text not null default 'queued' check (state in ('queued', 'running', 'done', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  run_after timestamptz not null default now(),
  locked_by text,
  locked_at timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index track_jobs_queued_idx on public.track_jobs (run_after) where state = 'queued';
alter table public.track_jobs enable row level security;
revoke all on public.track_jobs from anon, authenticated;

-- Every new track in processing gets a job and its (empty) lyrics record (spec section 7).
create or replace function public.tracks_after_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.track_lyrics (track_id, lyrics, last_edited_by)
  values (new.id, '[]'::jsonb, new.uploaded_by)
  on conflict (track_id) do nothing;
  if new.status = 'processing' then
    insert into public.track_jobs (track_id) values (new.id)
    on conflict (track_id) do update set state = 'queued', run_after = now(), updated_at = now();
    perform pg_notify('track_jobs', new.id::text);
  end if;
  return new;
end
$$;
create trigger tracks_after_insert after insert on public.tracks
  for each row execute function public.tracks_after_insert();

-- The uploader (or an admin) asks for a failed track to be processed again.
create or replace function public.retry_track_processing(track_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  t public.tracks;
begin
  select * into t from public.tracks where id = retry_track_processing.track_id for update;
  if not found or not (t.uploaded_by = auth.uid() or public.is_admin()) then
    raise exception 'Track not found' using errcode = 'P0002';
  end if;
  if t.status <> 'failed' then
    raise exception 'Only a track whose processing failed can be retried'
      using errcode = '22023';
  end if;
  update public.tracks
     set status = 'processing', processing_stage = 'queued', processing_progress = null,
         status_reason = null
   where id = t.id;
  insert into public.track_jobs (track_id) values (t.id)
  on conflict (track_id) do update
    set state = 'queued', attempts = 0, run_after = now(), last_error = null, updated_at = now();
  perform pg_notify('track_jobs', t.id::text);
end
$$;
revoke execute on function public.retry_track_processing(uuid) from public, anon;
grant execute on function public.retry_track_processing(uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Waveform peaks, in BBC audiowaveform's JSON fields (what wavesurfer.js reads). Readable where
-- the track is (the subquery runs under the reader's policies on tracks).
create table public.track_waveforms (
  track_id uuid primary key references public.tracks (id) on delete cascade,
  version smallint not null default 2,
  channels smallint not null default 1,
  sample_rate integer not null check (sample_rate > 0),
  samples_per_pixel integer not null check (samples_per_pixel > 0),
  bits smallint not null default 8 check (bits in (8, 16)),
  length integer not null check (length >= 0),
  data jsonb not null check (jsonb_typeof(data) = 'array'),
  created_at timestamptz not null default now()
);
alter table public.track_waveforms enable row level security;
revoke all on public.track_waveforms from anon, authenticated;
grant select on public.track_waveforms to anon, authenticated;
create policy "track_waveforms: readable where the track is" on public.track_waveforms
  for select to anon, authenticated
  using (exists (select 1 from public.tracks t where t.id = track_waveforms.track_id));

-- ---------------------------------------------------------------------------------------------
-- Renditions and plans. A quality's rank: standard 1 (128 kbps), high 2 (320 kbps), lossless 3.
-- A plan's rank comes from its definition (plans.audio_lossless, plans.audio_kbps).
create or replace function public.quality_rank(quality text) returns integer
language sql immutable parallel safe
set search_path = ''
as $$
  select case quality when 'standard' then 1 when 'high' then 2 when 'lossless' then 3 end
$$;
grant execute on function public.quality_rank(text) to anon, authenticated, service_role;

-- The best quality the caller's plan pays for (0 for anon).
create or replace function public.caller_quality_rank() returns integer
language sql stable
security definer
set search_path = ''
as $$
  select coalesce((
    select case when pl.audio_lossless then 3 when pl.audio_kbps >= 320 then 2 else 1 end
      from public.profiles p join public.plans pl on pl.id = p.subscription_plan
     where p.id = auth.uid()
  ), 0)
$$;
revoke execute on function public.caller_quality_rank() from public;
grant execute on function public.caller_quality_rank() to anon, authenticated, service_role;

-- May the caller fetch this quality of this track? Runs as the caller, so the track must be
-- visible to them (every select policy on tracks applies); the uploader and admins fetch all.
create or replace function public.may_fetch_quality(track_id text, quality text) returns boolean
language plpgsql stable
set search_path = ''
as $$
declare
  t record;
begin
  if track_id !~ '^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$' then
    return false;
  end if;
  select tr.uploaded_by, tr.status, tr.qualities into t
    from public.tracks tr where tr.id = track_id::uuid;
  if not found then
    return false;
  end if;
  if t.uploaded_by = auth.uid() or public.is_admin() then
    return true;
  end if;
  return t.status = 'ready' and quality = any (t.qualities)
     and public.quality_rank(quality) <= public.caller_quality_rank();
end
$$;
grant execute on function public.may_fetch_quality(text, text) to anon, authenticated, service_role;

-- The original upload of a track, as the caller may fetch it: its uploader, an admin, or a
-- listener whose plan includes lossless when the original is lossless; earlier rows without
-- renditions stay playable by every signed-in listener.
create or replace function public.may_fetch_original(object_name text) returns boolean
language plpgsql stable
set search_path = ''
as $$
declare
  t record;
begin
  for t in
    select tr.id, tr.status, tr.qualities from public.tracks tr
     where tr.audio_url = 'tracks/' || object_name
        or tr.audio_url like '%/storage/v1/object/public/tracks/' || object_name
  loop
    if t.status = 'ready' and (
         ('lossless' = any (t.qualities) and public.caller_quality_rank() >= 3)
         or (t.qualities = '{}' and auth.uid() is not null)) then
      return true;
    end if;
  end loop;
  return false;
end
$$;
grant execute on function public.may_fetch_original(text) to anon, authenticated, service_role;

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('renditions', 'renditions', false, 200 * 1024 * 1024, array['audio/mpeg'])
on conflict (id) do nothing;

create policy "renditions: by the reader's plan" on storage.objects
  for select to anon, authenticated
  using (
    bucket_id = 'renditions'
    and public.may_fetch_quality(
      (storage.foldername(name))[1],
      case storage.filename(name) when 'standard.mp3' then 'standard' when 'high.mp3' then 'high' end
    )
  );

-- The tracks bucket holds originals. Reads through the API (signed URLs, authenticated reads)
-- follow these policies; the bucket's public flag is turned off by a later migration, once the
-- player fetches signed URLs of renditions. Covers and avatars stay public.
drop policy "soundloft buckets: readable by everyone" on storage.objects;
create policy "covers and avatars: readable by everyone" on storage.objects
  for select to anon, authenticated
  using (bucket_id in ('covers', 'avatars'));
create policy "tracks bucket: the uploader, an admin, or the plan" on storage.objects
  for select to anon, authenticated
  using (
    bucket_id = 'tracks'
    and (
      (storage.foldername(name))[1] = (select auth.uid()::text)
      or (select public.is_admin())
      or public.may_fetch_original(name)
    )
  );
