-- Recommendations, for real (issue 8): collaborative filtering from listening history and likes,
-- with artist and genre similarity as the fallback, then popularity; never a track the caller
-- already played or liked, never the caller's own uploads, never the tracks just played.
--
-- Same signature and result as 20261122001000 (the get-recommendations function is unchanged).
--
-- How it ranks (one query, bounded work):
--   1. The caller's taste: the tracks just played (sent by the app), plus, when signed in, their
--      listening history and likes (latest 500 distinct of each). These are also never returned.
--   2. Neighbours: the other users who played or liked any of those tracks, the 200 with the
--      most in common. Each weighs shared / sqrt(everything they played or liked), a cosine-like
--      score, so a user who played the whole catalogue does not outvote everybody else.
--   3. A candidate's collaborative score is the sum of the weights of the neighbours who played
--      or liked it. Ties (including every track nobody in common touched) are ordered by artist
--      similarity (2) or genre similarity (1) to what was just played, then by plays, newest.
--
-- Security definer: other users' history and likes are not readable by the caller (RLS), but
-- the ranking needs them. Only public track rows come out; no user, no count, no score. What
-- remains observable is inherent to collaborative filtering ("people who played X also played
-- Y"), over a neighbourhood of at least one other user.
create or replace function public.recommend_tracks(
  played_ids uuid[] default '{}',
  seed_artists text[] default '{}',
  seed_genres text[] default '{}',
  max_results integer default 10
)
returns setof public.tracks
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_played uuid[] := array(
    select distinct p from unnest(coalesce(played_ids, '{}')) p where p is not null limit 50
  );
  v_known uuid[];
  v_artists text[];
  v_genres text[];
  v_limit integer := least(greatest(coalesce(max_results, 10), 1), 50);
begin
  v_known := v_played;
  if v_user is not null then
    v_known := v_known
      || array(
        select h.track_id from public.listening_history h
         where h.user_id = v_user
         group by h.track_id
         order by max(h.listened_at) desc
         limit 500)
      || array(
        select l.track_id from public.liked_tracks l
         where l.user_id = v_user
         order by l.created_at desc
         limit 500);
    v_known := array(select distinct k from unnest(v_known) k);
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
    with interactions as not materialized (
      select h.user_id, h.track_id from public.listening_history h
      union
      select l.user_id, l.track_id from public.liked_tracks l
    ),
    neighbours as (
      select i.user_id, count(*)::float8 as shared
        from interactions i
       where i.track_id = any(v_known)
         and i.user_id is distinct from v_user
       group by i.user_id
       order by count(*) desc, i.user_id
       limit 200
    ),
    weighted as (
      select n.user_id, n.shared / sqrt(count(*)::float8) as weight
        from neighbours n
        join interactions i on i.user_id = n.user_id
       group by n.user_id, n.shared
    ),
    collaborative as (
      select i.track_id, sum(w.weight) as score
        from interactions i
        join weighted w on w.user_id = i.user_id
       group by i.track_id
    )
    select t.*
      from public.tracks t
      left join collaborative c on c.track_id = t.id
     where t.uploaded_by is distinct from v_user
       and not (t.id = any(v_known))
     order by
       coalesce(c.score, 0) desc,
       case
         when lower(btrim(t.artist)) = any(v_artists) then 2
         when lower(btrim(coalesce(t.genre, ''))) = any(v_genres) then 1
         else 0
       end desc,
       t.plays desc, t.created_at desc, t.id
     limit v_limit;
end
$$;

revoke execute on function public.recommend_tracks(uuid[], text[], text[], integer) from public;
grant execute on function public.recommend_tracks(uuid[], text[], text[], integer)
  to anon, authenticated, service_role;
