-- Recommendations for the `get-recommendations` edge function (spec §7): tracks by the artists,
-- then the genres, of what was just played that the caller has never listened to, then the most
-- played tracks. Never the caller's own uploads, never the tracks just played. Security invoker:
-- the caller's RLS and grants apply (tracks are public; the caller's own listening_history is
-- read only when signed in: anon has no grant on it, and plpgsql plans that query lazily).
create or replace function public.recommend_tracks(
  played_ids uuid[] default '{}',
  seed_artists text[] default '{}',
  seed_genres text[] default '{}',
  max_results integer default 10
)
returns setof public.tracks
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_played uuid[] := coalesce(played_ids, '{}');
  v_heard uuid[] := '{}';
  v_artists text[];
  v_genres text[];
begin
  if v_user is not null then
    v_heard := array(
      select distinct h.track_id from public.listening_history h where h.user_id = v_user
    );
  end if;
  v_artists := array(
    select distinct lower(btrim(a))
      from unnest(coalesce(seed_artists, '{}')
                  || array(select t.artist from public.tracks t where t.id = any(v_played))) a
     where coalesce(btrim(a), '') <> ''
  );
  v_genres := array(
    select distinct lower(btrim(g))
      from unnest(coalesce(seed_genres, '{}')
                  || array(select t.genre from public.tracks t where t.id = any(v_played))) g
     where coalesce(btrim(g), '') <> ''
  );
  return query
    select t.*
      from public.tracks t
     where t.uploaded_by is distinct from v_user
       and not (t.id = any(v_played))
     order by
       case
         when t.id = any(v_heard) then 0
         when lower(t.artist) = any(v_artists) then 2
         when lower(coalesce(t.genre, '')) = any(v_genres) then 1
         else 0
       end desc,
       t.plays desc, t.created_at desc, t.id
     limit least(greatest(coalesce(max_results, 10), 1), 50);
end
$$;

revoke execute on function public.recommend_tracks(uuid[], text[], text[], integer) from public;
grant execute on function public.recommend_tracks(uuid[], text[], text[], integer)
  to anon, authenticated, service_role;
