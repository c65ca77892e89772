-- Sync (docs/sync.md): the client's outbox is replayed through apply_mutations(), which applies
-- a batch in order and records every mutation id it has seen in the same transaction, so a
-- replayed batch (response lost after commit) has no second effect. sync_deletions is the
-- tombstone log that lets clients pull deletions incrementally.

-- ---------------------------------------------------------------------------------------------
-- Mutations seen per user: applied or rejected (a rejection is final, and a replay gets the same
-- answer). Rows older than 30 days are pruned by apply_mutations.
create table public.sync_mutations (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  mutation_id uuid not null,
  client_id text not null check (char_length(client_id) between 1 and 100),
  op text not null check (char_length(op) <= 50),
  status text not null check (status in ('applied', 'rejected')),
  code text,
  message text,
  applied_at timestamptz not null default now(),
  primary key (user_id, mutation_id)
);
create index sync_mutations_user_applied_idx on public.sync_mutations (user_id, applied_at);
create index sync_mutations_client_idx on public.sync_mutations (user_id, client_id, applied_at desc);

alter table public.sync_mutations enable row level security;
revoke all on public.sync_mutations from anon, authenticated;
grant select, insert (user_id, mutation_id, client_id, op, status, code, message, applied_at),
      delete
  on public.sync_mutations to authenticated;
create policy "sync_mutations: the owner reads" on public.sync_mutations
  for select to authenticated using (user_id = (select auth.uid()));
create policy "sync_mutations: the owner records" on public.sync_mutations
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "sync_mutations: the owner prunes" on public.sync_mutations
  for delete to authenticated using (user_id = (select auth.uid()));

-- ---------------------------------------------------------------------------------------------
-- Tombstones: one row per deleted row of a synced table. row_key is the row's key columns joined
-- by ':'; visible_to limits private rows (likes) to their owner, null = everyone.
create table public.sync_deletions (
  id bigint generated always as identity primary key,
  table_name text not null,
  row_key text not null,
  visible_to uuid,
  deleted_at timestamptz not null default now()
);
create index sync_deletions_table_deleted_idx on public.sync_deletions (table_name, deleted_at, id);
alter table public.sync_deletions enable row level security;
revoke all on public.sync_deletions from anon, authenticated;
grant select on public.sync_deletions to anon, authenticated;
create policy "sync_deletions: public rows, and private ones to their owner" on public.sync_deletions
  for select to anon, authenticated
  using (visible_to is null or visible_to = (select auth.uid()));

-- Trigger arguments: the visibility column ('' = public), then the key columns.
create or replace function public.sync_record_deletion() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  r jsonb := to_jsonb(old);
  k text;
  parts text[] := '{}';
  i integer;
begin
  for i in 1 .. tg_nargs - 1 loop
    k := tg_argv[i];
    parts := parts || (r ->> k);
  end loop;
  insert into public.sync_deletions (table_name, row_key, visible_to)
  values (tg_table_name, array_to_string(parts, ':'),
          case when tg_argv[0] = '' then null else (r ->> tg_argv[0])::uuid end);
  return null;
end
$$;
revoke execute on function public.sync_record_deletion() from public, anon, authenticated;

create trigger sync_record_deletion after delete on public.tracks
  for each row execute function public.sync_record_deletion('', 'id');
create trigger sync_record_deletion after delete on public.playlists
  for each row execute function public.sync_record_deletion('', 'id');
create trigger sync_record_deletion after delete on public.track_lyrics
  for each row execute function public.sync_record_deletion('', 'track_id');
create trigger sync_record_deletion after delete on public.liked_tracks
  for each row execute function public.sync_record_deletion('user_id', 'user_id', 'track_id');
create trigger sync_record_deletion after delete on public.followers
  for each row execute function public.sync_record_deletion('', 'follower_id', 'following_id');

-- ---------------------------------------------------------------------------------------------
-- One mutation, as the caller (security invoker: RLS, grants and guard triggers decide).
create or replace function public.sync_apply_one(p_op text, a jsonb) returns void
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_ids uuid[];
begin
  case p_op
    when 'like.add' then
      insert into public.liked_tracks (id, user_id, track_id)
      values (coalesce((a ->> 'id')::uuid, gen_random_uuid()), v_uid, (a ->> 'track_id')::uuid)
      on conflict do nothing;
    when 'like.remove' then
      delete from public.liked_tracks l
      where l.user_id = v_uid and l.track_id = (a ->> 'track_id')::uuid;
    when 'follow.add' then
      insert into public.followers (follower_id, following_id)
      values (v_uid, (a ->> 'following_id')::uuid)
      on conflict do nothing;
    when 'follow.remove' then
      delete from public.followers f
      where f.follower_id = v_uid and f.following_id = (a ->> 'following_id')::uuid;
    when 'playlist.create' then
      insert into public.playlists (id, name, description, created_by, track_ids)
      values ((a ->> 'id')::uuid, a ->> 'name', coalesce(a ->> 'description', ''), v_uid,
              coalesce(array(select jsonb_array_elements_text(a -> 'track_ids'))::uuid[], '{}'))
      on conflict (id) do nothing;
    when 'playlist.update' then
      update public.playlists p
         set name = case when a ? 'name' then a ->> 'name' else p.name end,
             description = case when a ? 'description' then coalesce(a ->> 'description', '')
                                else p.description end
       where p.id = (a ->> 'id')::uuid;
      if not found then
        raise exception 'Playlist not found' using errcode = 'P0002';
      end if;
    when 'playlist.delete' then
      delete from public.playlists p where p.id = (a ->> 'id')::uuid;
    when 'playlist.add_track' then
      perform public.add_track_to_playlist((a ->> 'id')::uuid, (a ->> 'track_id')::uuid);
    when 'playlist.remove_track' then
      update public.playlists p set track_ids = array_remove(p.track_ids, (a ->> 'track_id')::uuid)
       where p.id = (a ->> 'id')::uuid and p.track_ids @> array[(a ->> 'track_id')::uuid];
    when 'playlist.reorder' then
      -- The wanted order of the tracks still in the playlist; tracks added elsewhere meanwhile
      -- keep their place at the end.
      v_ids := array(select jsonb_array_elements_text(a -> 'track_ids'))::uuid[];
      update public.playlists p set track_ids = array(
        select s.x from (
          select t.x, t.ord from unnest(v_ids) with ordinality as t(x, ord)
           where t.x = any (p.track_ids)
          union all
          select c.x, 1000000 + c.ord from unnest(p.track_ids) with ordinality as c(x, ord)
           where not (c.x = any (v_ids))
        ) s order by s.ord)
       where p.id = (a ->> 'id')::uuid;
      if not found then
        raise exception 'Playlist not found' using errcode = 'P0002';
      end if;
    when 'lyrics.save' then
      insert into public.track_lyrics (track_id, lyrics, language, is_synced)
      values ((a ->> 'track_id')::uuid, coalesce(a -> 'lyrics', '[]'::jsonb),
              coalesce(a ->> 'language', 'en'), coalesce((a ->> 'is_synced')::boolean, true))
      on conflict (track_id) do update
        set lyrics = excluded.lyrics, language = excluded.language, is_synced = excluded.is_synced;
    when 'profile.update' then
      update public.profiles p
         set name = case when a ? 'name' then a ->> 'name' else p.name end,
             avatar_url = case when a ? 'avatar_url' then a ->> 'avatar_url' else p.avatar_url end,
             bio = case when a ? 'bio' then a ->> 'bio' else p.bio end,
             social_links = case when a ? 'social_links' then coalesce(a -> 'social_links', '{}')
                                 else p.social_links end,
             featured_track = case when a ? 'featured_track' then (a ->> 'featured_track')::uuid
                                   else p.featured_track end,
             featured_playlist = case when a ? 'featured_playlist'
                                      then (a ->> 'featured_playlist')::uuid
                                      else p.featured_playlist end
       where p.id = v_uid;
      if not found then
        raise exception 'Profile not found.' using errcode = 'P0002';
      end if;
    when 'play.record' then
      perform public.increment_track_plays((a ->> 'track_id')::uuid, a ->> 'session_id',
                                           (a ->> 'played_at')::timestamptz);
    else
      raise exception 'Unknown operation %', p_op using errcode = '22023';
  end case;
end
$$;
revoke execute on function public.sync_apply_one(text, jsonb) from public, anon;
grant execute on function public.sync_apply_one(text, jsonb) to authenticated;

-- Applies a batch [{id, op, args}] in order, each mutation once: a mutation id seen before
-- returns its recorded outcome. A mutation the database refuses (constraint, RLS, validation,
-- P0001) is rolled back alone and recorded as rejected; a transient failure (serialization,
-- resources, connection) fails the whole batch so the client retries it.
create or replace function public.apply_mutations(p_client_id text, p_mutations jsonb)
returns jsonb
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  m jsonb;
  v_id uuid;
  v_op text;
  v_prev record;
  v_results jsonb := '[]'::jsonb;
  v_state text;
  v_msg text;
begin
  if v_uid is null then
    raise exception 'Auth session missing!' using errcode = '42501';
  end if;
  if jsonb_typeof(p_mutations) is distinct from 'array' or jsonb_array_length(p_mutations) > 500 then
    raise exception 'p_mutations must be an array of at most 500 mutations' using errcode = '22023';
  end if;
  -- One batch of a user at a time (two tabs without Web Locks may send the same entries): the
  -- second waits, then finds the first one's mutations in the log.
  perform pg_advisory_xact_lock(hashtext('apply_mutations:' || v_uid::text));
  for m in select value from jsonb_array_elements(p_mutations) loop
    v_id := (m ->> 'id')::uuid;
    v_op := m ->> 'op';
    if m ? 'user_id' and (m ->> 'user_id')::uuid is distinct from v_uid then
      raise exception 'Mutation % belongs to another user', v_id using errcode = '28000';
    end if;
    select s.status, s.code, s.message into v_prev
      from public.sync_mutations s where s.user_id = v_uid and s.mutation_id = v_id;
    if found then
      v_results := v_results || jsonb_build_array(jsonb_build_object(
        'id', v_id, 'status', v_prev.status, 'code', v_prev.code, 'message', v_prev.message,
        'duplicate', true));
      continue;
    end if;
    begin
      perform public.sync_apply_one(v_op, coalesce(m -> 'args', '{}'::jsonb));
      insert into public.sync_mutations (user_id, mutation_id, client_id, op, status)
      values (v_uid, v_id, p_client_id, v_op, 'applied');
      v_results := v_results || jsonb_build_array(jsonb_build_object('id', v_id, 'status', 'applied'));
    exception when others then
      get stacked diagnostics v_state = returned_sqlstate, v_msg = message_text;
      if left(v_state, 2) in ('08', '40', '53', '55', '57', '58', 'XX') then
        raise;
      end if;
      insert into public.sync_mutations (user_id, mutation_id, client_id, op, status, code, message)
      values (v_uid, v_id, p_client_id, left(v_op, 50), 'rejected', v_state, v_msg);
      v_results := v_results || jsonb_build_array(jsonb_build_object(
        'id', v_id, 'status', 'rejected', 'code', v_state, 'message', v_msg));
    end;
  end loop;
  delete from public.sync_mutations s
   where s.user_id = v_uid and s.applied_at < now() - interval '30 days';
  return v_results;
end
$$;
revoke execute on function public.apply_mutations(text, jsonb) from public, anon;
grant execute on function public.apply_mutations(text, jsonb) to authenticated;
