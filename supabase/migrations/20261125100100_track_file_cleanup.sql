-- A deleted track's files go with it (docs/upload.md): its original, its renditions and its
-- cover (when no other track uses it). The trigger queues them; the server removes each object's
-- row and bytes (the bytes are outside the database, so SQL alone cannot).
create table public.storage_garbage (
  bucket_id text not null,
  name text not null,
  queued_at timestamptz not null default now(),
  primary key (bucket_id, name)
);
alter table public.storage_garbage enable row level security;
revoke all on public.storage_garbage from anon, authenticated;

create or replace function public.tracks_queue_files() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  original text := public.track_audio_object(old.audio_url);
  cover text := substring(old.cover_image from '/storage/v1/object/public/covers/(.*)$');
begin
  if original is not null
     and not exists (select 1 from public.tracks t where t.audio_url = old.audio_url) then
    insert into public.storage_garbage (bucket_id, name) values ('tracks', original)
    on conflict do nothing;
  end if;
  insert into public.storage_garbage (bucket_id, name)
  values ('renditions', old.id || '/standard.mp3'), ('renditions', old.id || '/high.mp3')
  on conflict do nothing;
  if cover is not null
     and not exists (select 1 from public.tracks t where t.cover_image = old.cover_image)
     and not exists (select 1 from public.playlists p where p.cover_image = old.cover_image) then
    insert into public.storage_garbage (bucket_id, name) values ('covers', cover)
    on conflict do nothing;
  end if;
  perform pg_notify('track_jobs', old.id::text);
  return old;
end
$$;
create trigger tracks_queue_files after delete on public.tracks
  for each row execute function public.tracks_queue_files();
