-- Likes, playlists, follows and listening history.

create table public.liked_tracks (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  track_id uuid not null references public.tracks (id) on delete cascade,
  created_at timestamptz not null default now(),
  unique (user_id, track_id)
);
create index liked_tracks_user_created_idx on public.liked_tracks (user_id, created_at desc);
create index liked_tracks_track_id_idx on public.liked_tracks (track_id);
create trigger handle_created_at before insert or update on public.liked_tracks
  for each row execute function public.handle_created_at();

alter table public.liked_tracks enable row level security;
revoke all on public.liked_tracks from anon, authenticated;
grant select, insert (id, user_id, track_id, created_at), delete on public.liked_tracks to authenticated;
create policy "liked_tracks: the owner or an admin reads" on public.liked_tracks
  for select to authenticated using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy "liked_tracks: a user likes as themselves" on public.liked_tracks
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "liked_tracks: the owner unlikes" on public.liked_tracks
  for delete to authenticated using (user_id = (select auth.uid()));

-- ---------------------------------------------------------------------------------------------
create or replace function public.uuid_array_is_set(ids uuid[]) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select array_position(ids, null) is null
     and cardinality(ids) = (select count(distinct x) from unnest(ids) as x)
$$;

create table public.playlists (
  id uuid primary key default gen_random_uuid(),
  name text not null check (btrim(name) <> '' and char_length(name) <= 100),
  description text not null default '' check (char_length(description) <= 1000),
  cover_image text check (char_length(cover_image) <= 2048),
  created_by uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  track_ids uuid[] not null default '{}' check (public.uuid_array_is_set(track_ids)),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index playlists_created_by_idx on public.playlists (created_by, created_at desc);
create index playlists_created_at_idx on public.playlists (created_at desc);
create index playlists_track_ids_idx on public.playlists using gin (track_ids);
create trigger handle_timestamps before insert or update on public.playlists
  for each row execute function public.handle_timestamps();

create trigger keep_keys before update of id, created_by on public.playlists
  for each row execute function public.keep_keys('id', 'created_by');

alter table public.playlists enable row level security;
revoke all on public.playlists from anon, authenticated;
grant select on public.playlists to anon, authenticated;
grant insert (id, name, description, cover_image, created_by, track_ids, created_at, updated_at),
      update (id, name, description, cover_image, created_by, track_ids, created_at, updated_at),
      delete
  on public.playlists to authenticated;
create policy "playlists: readable by everyone" on public.playlists
  for select to anon, authenticated using (true);
create policy "playlists: a user creates as themselves" on public.playlists
  for insert to authenticated with check (created_by = (select auth.uid()));
create policy "playlists: only the creator changes" on public.playlists
  for update to authenticated using (created_by = (select auth.uid())) with check (created_by = (select auth.uid()));
create policy "playlists: the creator or an admin deletes" on public.playlists
  for delete to authenticated using (created_by = (select auth.uid()) or (select public.is_admin()));

alter table public.profiles
  add constraint profiles_featured_playlist_fkey
  foreign key (featured_playlist) references public.playlists (id) on delete set null;
create index profiles_featured_playlist_idx on public.profiles (featured_playlist);

-- Featuring: a profile features one of its own tracks and one of its own playlists.
create or replace function public.profiles_check_featured() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.featured_track is not null
     and new.featured_track is distinct from (case when tg_op = 'UPDATE' then old.featured_track end)
     and not exists (select 1 from public.tracks t where t.id = new.featured_track and t.uploaded_by = new.id) then
    raise exception 'You can only feature your own tracks' using errcode = '42501';
  end if;
  if new.featured_playlist is not null
     and new.featured_playlist is distinct from (case when tg_op = 'UPDATE' then old.featured_playlist end)
     and not exists (select 1 from public.playlists p where p.id = new.featured_playlist and p.created_by = new.id) then
    raise exception 'You can only feature your own playlists' using errcode = '42501';
  end if;
  return new;
end
$$;
create trigger profiles_check_featured before insert or update of featured_track, featured_playlist
  on public.profiles for each row execute function public.profiles_check_featured();

-- Adds a track to one of the caller's playlists, atomically; adding it again does nothing.
-- Returns the playlist's track_ids.
create or replace function public.add_track_to_playlist(playlist_id uuid, track_id uuid)
returns uuid[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_owner uuid;
  v_ids uuid[];
begin
  if auth.uid() is null then
    raise exception 'Auth session missing!' using errcode = '42501';
  end if;
  select p.created_by, p.track_ids into v_owner, v_ids
  from public.playlists p where p.id = add_track_to_playlist.playlist_id
  for update;
  if not found or v_owner <> auth.uid() then
    raise exception 'Playlist not found' using errcode = 'P0002';
  end if;
  if not exists (select 1 from public.tracks t where t.id = add_track_to_playlist.track_id) then
    raise exception 'Track not found' using errcode = 'P0002';
  end if;
  if add_track_to_playlist.track_id = any (v_ids) then
    return v_ids;
  end if;
  update public.playlists p
     set track_ids = array_append(p.track_ids, add_track_to_playlist.track_id)
   where p.id = add_track_to_playlist.playlist_id
  returning p.track_ids into v_ids;
  return v_ids;
end
$$;
revoke execute on function public.add_track_to_playlist(uuid, uuid) from public, anon;
grant execute on function public.add_track_to_playlist(uuid, uuid) to authenticated, service_role;

-- A deleted track leaves every playlist (track_ids has no foreign key).
create or replace function public.tracks_remove_from_playlists() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.playlists p set track_ids = array_remove(p.track_ids, old.id)
  where p.track_ids @> array[old.id];
  return null;
end
$$;
create trigger tracks_remove_from_playlists after delete on public.tracks
  for each row execute function public.tracks_remove_from_playlists();

-- ---------------------------------------------------------------------------------------------
create table public.followers (
  follower_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  following_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (follower_id, following_id),
  constraint followers_no_self_follow check (follower_id <> following_id)
);
create index followers_following_id_idx on public.followers (following_id);
create trigger handle_created_at before insert or update on public.followers
  for each row execute function public.handle_created_at();

alter table public.followers enable row level security;
revoke all on public.followers from anon, authenticated;
grant select on public.followers to anon, authenticated;
grant insert (follower_id, following_id, created_at), delete on public.followers to authenticated;
create policy "followers: readable by everyone" on public.followers
  for select to anon, authenticated using (true);
create policy "followers: a user follows as themselves" on public.followers
  for insert to authenticated with check (follower_id = (select auth.uid()));
create policy "followers: the follower or an admin unfollows" on public.followers
  for delete to authenticated using (follower_id = (select auth.uid()) or (select public.is_admin()));

-- profiles.followers is the number of followers, kept by this trigger only.
create or replace function public.followers_count() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.profiles set followers = followers + 1 where id = new.following_id;
  else
    update public.profiles set followers = greatest(followers - 1, 0) where id = old.following_id;
  end if;
  return null;
end
$$;
create trigger followers_count after insert or delete on public.followers
  for each row execute function public.followers_count();

-- ---------------------------------------------------------------------------------------------
-- Listening history: written by increment_track_plays for every new listen (and insertable by
-- its owner); read by the owner, by the people who follow them (friends activity) and admins.
create table public.listening_history (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  track_id uuid not null references public.tracks (id) on delete cascade,
  listened_at timestamptz not null default now()
);
create index listening_history_user_listened_idx on public.listening_history (user_id, listened_at desc);
create index listening_history_track_id_idx on public.listening_history (track_id);

-- A listen cannot be in the future.
create or replace function public.listening_history_clamp() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.listened_at := least(coalesce(new.listened_at, now()), now());
  return new;
end
$$;
create trigger listening_history_clamp before insert or update on public.listening_history
  for each row execute function public.listening_history_clamp();

alter table public.listening_history enable row level security;
revoke all on public.listening_history from anon, authenticated;
grant select, insert (id, user_id, track_id, listened_at), delete on public.listening_history to authenticated;

create or replace function public.is_following(p_user_id uuid) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.followers f where f.follower_id = auth.uid() and f.following_id = p_user_id
  )
$$;
revoke execute on function public.is_following(uuid) from public;
grant execute on function public.is_following(uuid) to anon, authenticated, service_role;

create policy "listening_history: the owner, their followers and admins read" on public.listening_history
  for select to authenticated
  using (user_id = (select auth.uid()) or public.is_following(user_id) or (select public.is_admin()));
create policy "listening_history: a user records their own" on public.listening_history
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "listening_history: the owner clears" on public.listening_history
  for delete to authenticated using (user_id = (select auth.uid()));
