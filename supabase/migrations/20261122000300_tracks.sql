-- Tracks, their lyrics, moderation and the monthly upload limit.

create table public.tracks (
  id uuid primary key default gen_random_uuid(),
  title text not null check (btrim(title) <> '' and char_length(title) <= 200),
  artist text not null check (btrim(artist) <> '' and char_length(artist) <= 200),
  album text check (char_length(album) <= 200),
  genre text check (char_length(genre) <= 100),
  duration integer not null default 0 check (duration >= 0),
  audio_url text not null check (btrim(audio_url) <> '' and char_length(audio_url) <= 2048),
  cover_image text check (char_length(cover_image) <= 2048),
  uploaded_by uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  plays bigint not null default 0 check (plays >= 0),
  verified boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- Spec §7: newest first, by uploader (list and count), moderation (unverified first), artist page.
create index tracks_created_at_idx on public.tracks (created_at desc);
create index tracks_uploaded_by_idx on public.tracks (uploaded_by, created_at desc);
create index tracks_unverified_idx on public.tracks (created_at desc) where not verified;
create index tracks_artist_idx on public.tracks (artist);
-- Search (title, artist, album, genre; ilike '%q%' and similarity).
create index tracks_title_trgm_idx on public.tracks using gin (title extensions.gin_trgm_ops);
create index tracks_artist_trgm_idx on public.tracks using gin (artist extensions.gin_trgm_ops);
create index tracks_album_trgm_idx on public.tracks using gin (album extensions.gin_trgm_ops);
create index tracks_genre_trgm_idx on public.tracks using gin (genre extensions.gin_trgm_ops);

create trigger handle_timestamps before insert or update on public.tracks
  for each row execute function public.handle_timestamps();

alter table public.tracks enable row level security;

-- plays is never written by users; verified only by admins (guard trigger below). plays and
-- verified stay insertable so the spec's insert shape ({..., plays: 0, verified: false}) works.
revoke all on public.tracks from anon, authenticated;
grant select on public.tracks to anon, authenticated;
grant insert (id, title, artist, album, genre, duration, audio_url, cover_image, uploaded_by,
              plays, verified, created_at, updated_at)
  on public.tracks to authenticated;
grant update (id, title, artist, album, genre, duration, audio_url, cover_image, uploaded_by,
              verified, created_at, updated_at)
  on public.tracks to authenticated;
create trigger keep_keys before update of id, uploaded_by on public.tracks
  for each row execute function public.keep_keys('id', 'uploaded_by');
grant delete on public.tracks to authenticated;

-- The whole catalogue (verified or pending review) is public, as the spec's catalogue lists it.
create policy "tracks: readable by everyone" on public.tracks
  for select to anon, authenticated using (true);
create policy "tracks: a user uploads as themselves" on public.tracks
  for insert to authenticated with check (uploaded_by = (select auth.uid()));
create policy "tracks: the uploader or an admin updates" on public.tracks
  for update to authenticated
  using (uploaded_by = (select auth.uid()) or (select public.is_admin()))
  with check (uploaded_by = (select auth.uid()) or (select public.is_admin()));
create policy "tracks: the uploader or an admin deletes" on public.tracks
  for delete to authenticated using (uploaded_by = (select auth.uid()) or (select public.is_admin()));

-- API users (anon, authenticated) cannot create a track with plays or as verified, and only
-- admins change verified (keep_keys above keeps id and uploaded_by). Functions running as their
-- owner pass.
create or replace function public.tracks_guard_privileged() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  if tg_op = 'INSERT' then
    if new.plays <> 0 or (new.verified and not public.is_admin()) then
      raise exception 'New tracks start with 0 plays and pending review'
        using errcode = '42501';
    end if;
  else
    if new.verified is distinct from old.verified and not public.is_admin() then
      raise exception 'Only an admin can approve a track' using errcode = '42501';
    end if;
  end if;
  return new;
end
$$;
create trigger tracks_guard_privileged before insert or update on public.tracks
  for each row execute function public.tracks_guard_privileged();

-- Monthly upload limit of the uploader's plan (plans.monthly_upload_limit, null = unlimited).
-- The profile row lock serialises one user's concurrent uploads.
create or replace function public.tracks_enforce_upload_limit() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  this_month date := date_trunc('month', now() at time zone 'utc')::date;
  plan_limit integer;
  uploads integer;
begin
  select case when p.monthly_uploads_month = this_month then p.monthly_uploads else 0 end,
         pl.monthly_upload_limit
    into uploads, plan_limit
  from public.profiles p join public.plans pl on pl.id = p.subscription_plan
  where p.id = new.uploaded_by
  for update of p;
  if not found then
    raise exception 'Profile not found.' using errcode = '23503';
  end if;
  if plan_limit is not null and uploads >= plan_limit then
    raise exception 'You have reached your monthly upload limit. Upgrade your plan to upload more tracks.'
      using errcode = 'P0001';
  end if;
  update public.profiles
     set monthly_uploads = uploads + 1, monthly_uploads_month = this_month
   where id = new.uploaded_by;
  return new;
end
$$;
create trigger tracks_enforce_upload_limit before insert on public.tracks
  for each row execute function public.tracks_enforce_upload_limit();

-- A deleted track leaves every playlist (track_ids has no foreign key).
-- (The function is created with the playlists table, in a later migration.)

-- Featured track: one of the profile owner's own tracks.
alter table public.profiles
  add constraint profiles_featured_track_fkey
  foreign key (featured_track) references public.tracks (id) on delete set null;
create index profiles_featured_track_idx on public.profiles (featured_track);

-- ---------------------------------------------------------------------------------------------
-- track_lyrics: one per track, edited by its uploader (or an admin).
create table public.track_lyrics (
  track_id uuid primary key references public.tracks (id) on delete cascade,
  lyrics jsonb not null default '[]'::jsonb check (
    jsonb_typeof(lyrics) = 'array'
    and not jsonb_path_exists(lyrics, '$[*] ? (@.type() != "object")')
    and not jsonb_path_exists(lyrics, '$[*] ? (@.text.type() != "string")')
  ),
  language text not null default 'en' check (language ~ '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$'),
  is_synced boolean not null default false,
  last_edited_by uuid default auth.uid() references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index track_lyrics_last_edited_by_idx on public.track_lyrics (last_edited_by);

create trigger handle_timestamps before insert or update on public.track_lyrics
  for each row execute function public.handle_timestamps();

-- last_edited_by is whoever wrote last, not what the client says.
create or replace function public.track_lyrics_set_editor() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if auth.uid() is not null then
    new.last_edited_by := auth.uid();
  end if;
  return new;
end
$$;
create trigger track_lyrics_set_editor before insert or update on public.track_lyrics
  for each row execute function public.track_lyrics_set_editor();

create trigger keep_keys before update of track_id on public.track_lyrics
  for each row execute function public.keep_keys('track_id');

alter table public.track_lyrics enable row level security;
revoke all on public.track_lyrics from anon, authenticated;
grant select on public.track_lyrics to anon, authenticated;
grant insert (track_id, lyrics, language, is_synced, last_edited_by, created_at, updated_at),
      update (track_id, lyrics, language, is_synced, last_edited_by, created_at, updated_at),
      delete
  on public.track_lyrics to authenticated;

create or replace function public.can_edit_track(p_track_id uuid) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.tracks t where t.id = p_track_id and t.uploaded_by = auth.uid())
      or public.is_admin()
$$;
revoke execute on function public.can_edit_track(uuid) from public;
grant execute on function public.can_edit_track(uuid) to anon, authenticated, service_role;

create policy "track_lyrics: readable by everyone" on public.track_lyrics
  for select to anon, authenticated using (true);
create policy "track_lyrics: the uploader or an admin adds" on public.track_lyrics
  for insert to authenticated with check (public.can_edit_track(track_id));
create policy "track_lyrics: the uploader or an admin edits" on public.track_lyrics
  for update to authenticated
  using (public.can_edit_track(track_id)) with check (public.can_edit_track(track_id));
create policy "track_lyrics: the uploader or an admin deletes" on public.track_lyrics
  for delete to authenticated using (public.can_edit_track(track_id));
