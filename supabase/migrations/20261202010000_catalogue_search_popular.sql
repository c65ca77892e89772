-- search_catalogue: the best matches of a very common word (issue 33, docs/search.md "Server:
-- the plan", step 4). 20261201060000 ranks at most 1,000 candidates from the words' GIN index,
-- and a GIN index yields them in table order, not by score: when a word matches more than
-- 1,000 tracks (`the`, `love`, a genre, a short prefix), its most played match could be
-- missed because it was stored late.
--
-- Now, only when those 1,000 are full, the matches among the 500 most played tracks join the
-- candidates: a walk down a new index on plays (500 rows, under a millisecond at 100,000
-- tracks), so the most played matches of a common word are always ranked. All candidates are
-- ranked as before; search.ranked and search_catalogue are unchanged.
--
-- Measured and dropped: a GIN index on the title's words alone (a generated column,
-- ts_filter(words, '{a}')), so that a word common in genres but rare in titles would bring all
-- its title matches; it cost about 1 ms of PostgreSQL CPU per search (wider rows, and up to
-- 7 µs per title row read), a third more than the whole search. docs/search.md, "Limits".
create index search_tracks_plays_idx on search.tracks (plays_log desc, track_id);

-- Candidates for tsquery `match`: at most 1,000 from the words' GIN index (table order) and,
-- when those are full, the matches among the 500 most played tracks, plus at most 200 lyrics
-- sheets; scored as before: ts_rank over the weighted words plus the same for the words typed
-- exactly, lyrics at 0.2, times the popularity factor and 1.1 for a track the caller liked or
-- whose uploader they follow; best first, ties by id.
create or replace function search.rank_candidates(
  p_match tsquery, p_exact tsquery, p_lyrics tsquery, p_tail tsquery, p_caller uuid,
  p_admin boolean, p_factor double precision, p_max integer
) returns table (track_id uuid, score double precision)
language plpgsql
stable
security definer
set search_path = ''
set enable_seqscan = off
as $$
#variable_conflict use_column
begin
  return query
  with main as materialized (
    select s.track_id, s.uploaded_by, s.plays_log, s.words
      from search.tracks s
     where s.words @@ p_match and (s.listed or s.uploaded_by = p_caller or p_admin)
     limit 1000
  ), full_ as (
    select pg_catalog.count(*) >= 1000 as full_ from main
  ), popular as materialized (
    select w.track_id, w.uploaded_by, w.plays_log, w.words
      from (select s.track_id, s.uploaded_by, s.plays_log, s.words, s.listed
              from search.tracks s
             where (select f.full_ from full_ f)
             order by s.plays_log desc, s.track_id
             limit 500) w
     where w.words @@ p_match and (w.listed or w.uploaded_by = p_caller or p_admin)
  ), tracks as (
    select * from main
    union all
    select * from popular p where p.track_id not in (select m.track_id from main m)
  ), lyr as materialized (
    select s.track_id, s.uploaded_by, s.plays_log, s.lyrics as words
      from search.tracks s
     where s.lyrics @@ p_lyrics and (s.listed or s.uploaded_by = p_caller or p_admin)
     limit 200
  ), candidates as (
    select m.track_id, m.uploaded_by, m.plays_log,
           pg_catalog.ts_rank('{0.1, 0.4, 0.6, 1.0}'::real[], m.words, p_match)
             + pg_catalog.ts_rank('{0.1, 0.4, 0.6, 1.0}'::real[], m.words, p_exact) as r
      from tracks m
     where p_tail is null or m.words @@ p_tail
    union all
    select y.track_id, y.uploaded_by, y.plays_log, 0.2 * pg_catalog.ts_rank(y.words, p_lyrics)
      from lyr y
  ), scored as (
    select c.track_id, c.uploaded_by, c.plays_log, sum(c.r) as r
      from candidates c group by c.track_id, c.uploaded_by, c.plays_log
  )
  select s.track_id,
         p_factor * s.r * (1 + 0.04 * s.plays_log)
           * case when p_caller is not null
                   and (s.track_id in (select lt.track_id from public.liked_tracks lt
                                        where lt.user_id = p_caller)
                        or s.uploaded_by in (select f.following_id from public.followers f
                                              where f.follower_id = p_caller))
                  then 1.1 else 1 end
    from scored s
   order by 2 desc, 1
   limit p_max;
end
$$;

