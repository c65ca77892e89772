-- search_catalogue at 100,000 tracks in milliseconds (issue 33, docs/search.md "Server: the
-- plan"). EXPLAIN of 20261130070000's function showed both of its track branches as sequential
-- scans: the function is security invoker, so the tracks' RLS policies apply, and PostgreSQL
-- may not evaluate a non-leakproof operator (`@@`, `<%`) in an index scan before those policies.
-- Its GIN indexes were never used, and every call folded and matched all 100,000 rows (1 to 3 s).
--
-- The plan now:
-- - `search.tracks`: one row per track with its folded, weighted words (a stored tsvector, GIN
--   indexed), its uploader, and `listed` (ready and not taken down: what RLS shows everyone).
-- - `search.words`: the distinct folded words of every title, artist, album and genre (about
--   40,000 at 100,000 tracks), trigram indexed. A query word of 4+ letters looks up its typo
--   variants here (1 edit from 4 letters, 2 from 8, checked with fuzzystrmatch's
--   levenshtein_less_equal), then the tracks are found through the tsvector's GIN index.
-- - Both are kept by triggers on public.tracks (and public.track_lyrics), enabled ALWAYS so that bulk seeds (which run
--   with session_replication_role = replica) keep them too. A word that no track holds any
--   longer (an edited or deleted track's) is removed.
-- - `search.ranked(q, n)`, security definer (the tables have no grants), ranks the listed
--   tracks plus the caller's own (an admin: all, as RLS shows admins), and
--   `public.search_catalogue` (security invoker, as before) returns those tracks joined to
--   public.tracks under the caller's RLS: RLS stays the last word on what a caller sees (a
--   banned caller gets nothing, as everywhere).
--
-- The schema `search` is not exposed by the REST API (only public is). fuzzystrmatch ships with
-- PostgreSQL (contrib), hosted Supabase and PGlite 0.5 (loaded in server/db/pglite.ts).
create extension if not exists fuzzystrmatch with schema extensions;

create schema if not exists search;
revoke all on schema search from public;
grant usage on schema search to anon, authenticated, service_role;

create table search.tracks (
  track_id uuid primary key references public.tracks (id) on delete cascade,
  uploaded_by uuid,
  listed boolean not null,
  words tsvector not null,
  -- log10(1 + plays) to 2 decimals: the popularity factor without reading public.tracks, and
  -- rewritten only when it changes (every ~2.3 % more plays), not on every play.
  plays_log real not null default 0,
  -- The lyrics sheet's folded words (public.lyrics_search_vector), stored: computing them from
  -- the jsonb for each of 200 candidate sheets cost 25 ms per search.
  lyrics tsvector
);

create table search.words (
  word text primary key
);

create or replace function search.plays_log(plays bigint) returns real
language sql immutable parallel safe
set search_path = ''
as $$ select pg_catalog.round(pg_catalog.log(1 + greatest(coalesce(plays, 0), 0))::numeric, 2)::real $$;

alter table search.tracks enable row level security;
alter table search.words enable row level security;
revoke all on search.tracks, search.words from public, anon, authenticated;

-- Forgets the words of `words` that no track holds any longer (an edited or deleted track's,
-- so that a deleted account's names do not stay behind). One GIN lookup per word.
create or replace function search.prune_words(words text[]) returns void
language sql
security definer
set search_path = ''
set enable_seqscan = off
as $$
  delete from search.words w
   where w.word = any(words)
     and not exists (select 1 from search.tracks s
                      where s.words @@ pg_catalog.quote_literal(w.word)::tsquery);
$$;

-- New tracks (one statement, any number of rows).
create or replace function search.tracks_inserted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into search.tracks (track_id, uploaded_by, listed, words, plays_log, lyrics)
  select n.id, n.uploaded_by, n.status = 'ready' and n.taken_down_at is null,
         public.track_search_vector(n.title, n.artist, n.album, n.genre), search.plays_log(n.plays),
         public.lyrics_search_vector(l.lyrics)
    from new_rows n
    left join public.track_lyrics l on l.track_id = n.id
  on conflict (track_id) do update
    set uploaded_by = excluded.uploaded_by, listed = excluded.listed, words = excluded.words,
        plays_log = excluded.plays_log;
  insert into search.words (word)
  select distinct w
    from search.tracks s
    join new_rows n on n.id = s.track_id
    cross join lateral pg_catalog.unnest(pg_catalog.tsvector_to_array(s.words)) as w
  on conflict do nothing;
  return null;
end
$$;
-- An edited track (row by row, and only when a searched column changed: plays do not fire it).
create or replace function search.track_updated() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_words tsvector := public.track_search_vector(new.title, new.artist, new.album, new.genre);
begin
  insert into search.tracks (track_id, uploaded_by, listed, words, plays_log, lyrics)
  values (new.id, new.uploaded_by, new.status = 'ready' and new.taken_down_at is null, v_words,
          search.plays_log(new.plays),
          (select public.lyrics_search_vector(l.lyrics) from public.track_lyrics l
            where l.track_id = new.id))
  on conflict (track_id) do update
    set uploaded_by = excluded.uploaded_by, listed = excluded.listed, words = excluded.words,
        plays_log = excluded.plays_log;
  insert into search.words (word)
  select w from pg_catalog.unnest(pg_catalog.tsvector_to_array(v_words)) as w
  on conflict do nothing;
  perform search.prune_words(pg_catalog.tsvector_to_array(
    public.track_search_vector(old.title, old.artist, old.album, old.genre)));
  return null;
end
$$;
-- Deleted tracks (also when the foreign key's cascade is off, as in a seed's replica mode).
create or replace function search.tracks_deleted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_words text[];
begin
  delete from search.tracks s using old_rows o where s.track_id = o.id;
  select pg_catalog.array_agg(distinct w) into v_words
    from old_rows o
    cross join lateral pg_catalog.unnest(pg_catalog.tsvector_to_array(
      public.track_search_vector(o.title, o.artist, o.album, o.genre))) as w;
  perform search.prune_words(v_words);
  return null;
end
$$;
-- Plays (any update statement; set-based, so a bulk update costs one join): only a changed
-- plays_log is written.
create or replace function search.tracks_played() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update search.tracks s set plays_log = search.plays_log(n.plays)
    from new_rows n
   where s.track_id = n.id and s.plays_log <> search.plays_log(n.plays);
  return null;
end
$$;
-- A lyrics sheet added, edited or removed (row by row: sheets are written one at a time). A
-- track inserted in the same statement as its sheet gets it from tracks_inserted.
create or replace function search.lyrics_changed() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    update search.tracks set lyrics = null where track_id = old.track_id;
  else
    update search.tracks set lyrics = public.lyrics_search_vector(new.lyrics)
     where track_id = new.track_id;
  end if;
  return null;
end
$$;
revoke all on function search.tracks_inserted(), search.track_updated(), search.tracks_played(),
  search.tracks_deleted(), search.prune_words(text[]), search.lyrics_changed() from public;

create trigger tracks_search_inserted after insert on public.tracks
  referencing new table as new_rows
  for each statement execute function search.tracks_inserted();
create trigger tracks_search_updated
  after update of title, artist, album, genre, status, taken_down_at, uploaded_by on public.tracks
  for each row
  when (old.title is distinct from new.title or old.artist is distinct from new.artist
        or old.album is distinct from new.album or old.genre is distinct from new.genre
        or old.status is distinct from new.status
        or old.taken_down_at is distinct from new.taken_down_at
        or old.uploaded_by is distinct from new.uploaded_by)
  execute function search.track_updated();
create trigger tracks_search_played after update on public.tracks
  referencing new table as new_rows
  for each statement execute function search.tracks_played();
create trigger tracks_search_deleted after delete on public.tracks
  referencing old table as old_rows
  for each statement execute function search.tracks_deleted();
create trigger track_lyrics_search after insert or update of lyrics or delete on public.track_lyrics
  for each row execute function search.lyrics_changed();
alter table public.track_lyrics enable always trigger track_lyrics_search;
alter table public.tracks enable always trigger tracks_search_inserted;
alter table public.tracks enable always trigger tracks_search_deleted;
alter table public.tracks enable always trigger tracks_search_played;
alter table public.tracks enable always trigger tracks_search_updated;

insert into search.tracks (track_id, uploaded_by, listed, words, plays_log, lyrics)
select t.id, t.uploaded_by, t.status = 'ready' and t.taken_down_at is null,
       public.track_search_vector(t.title, t.artist, t.album, t.genre), search.plays_log(t.plays),
       public.lyrics_search_vector(l.lyrics)
  from public.tracks t
  left join public.track_lyrics l on l.track_id = t.id;
insert into search.words (word)
select distinct w
  from search.tracks s
  cross join lateral pg_catalog.unnest(pg_catalog.tsvector_to_array(s.words)) as w
on conflict do nothing;
-- Built after the backfill. The GIN index without its pending list (fastupdate off): new rows
-- go straight into the index, so a bulk load does not leave 100,000 entries that every search
-- scans one by one until the next vacuum (46 ms per search in a test). The words are in a GiST
-- trigram index: its cost estimate needs no vacuum either (a GIN trigram index that was never
-- vacuumed is costed so high that the planner scanned all the words instead, 30 to 50 ms).
create index search_tracks_words_idx on search.tracks using gin (words) with (fastupdate = off);
create index search_tracks_lyrics_idx on search.tracks using gin (lyrics) with (fastupdate = off);
create index search_words_trgm_idx on search.words using gist (word extensions.gist_trgm_ops);

-- The old expression indexes served only the invoker function's branches, which RLS kept
-- from using them (see above); the lyrics' words are in search.tracks now.
drop index if exists public.tracks_search_vector_idx;
drop index if exists public.tracks_search_folded_trgm_idx;
drop index if exists public.track_lyrics_search_vector_idx;

-- Candidates for tsquery `match` (at most 1,000 titles/artists/albums/genres and 200 lyrics
-- sheets, so a very common word costs a bounded amount), scored: ts_rank over the weighted
-- words (title A 1.0, artist B 0.6, album C 0.4, genre D 0.1) plus the same for the words typed
-- exactly (`exact`, so 'halo' ranks Halo above Halogen and above a typo variant), lyrics at
-- 0.2, times the popularity factor 1 + 0.04·log10(1 + plays) (plays_log: no read of
-- public.tracks per candidate), times 1.1 for a track the caller
-- liked or whose uploader they follow; best first, ties by id. `tail` (a one-letter last word
-- while typing) is checked on the candidates only: as a prefix it would match most words.
-- enable_seqscan is off in both functions: their tables are only ever read through the GIN
-- indexes (words, trigrams, lyrics) and primary keys, but a SQL function's statements are
-- planned with the tsquery as an unknown parameter, and a freshly loaded table has no GIN
-- statistics until it is vacuumed, so the planner otherwise guessed a sequential scan of
-- 100,000 rows now and then (200 ms). Both are PL/pgSQL so that each connection plans their
-- statements once, not on every call (a SQL function with SET options is planned per call).
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
  ), lyr as materialized (
    select s.track_id, s.uploaded_by, s.plays_log, s.lyrics as words
      from search.tracks s
     where s.lyrics @@ p_lyrics and (s.listed or s.uploaded_by = p_caller or p_admin)
     limit 200
  ), candidates as (
    select m.track_id, m.uploaded_by, m.plays_log,
           pg_catalog.ts_rank('{0.1, 0.4, 0.6, 1.0}'::real[], m.words, p_match)
             + pg_catalog.ts_rank('{0.1, 0.4, 0.6, 1.0}'::real[], m.words, p_exact) as r
      from main m
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

-- search.ranked(q, n): the folded words of q (split on anything not a letter or digit); each
-- word matches as a prefix (from 2 letters) or as one of its typo variants from search.words
-- (1 edit from 4 letters, 2 from 8, at most 16 variants, nearest first); all words must match.
-- When nothing matches all of them, tracks matching any of them come back, scored at half.
-- Trigram similarity 0.2 finds every 1-edit variant of a 4-letter word (the worst case shares
-- 2 of 8 trigrams, 0.25); levenshtein_less_equal then keeps the true variants only.
create or replace function search.ranked(q text, max_results integer)
returns table (track_id uuid, score double precision)
language plpgsql
stable
security definer
set search_path = ''
set pg_trgm.similarity_threshold = '0.2'
set enable_seqscan = off
as $$
declare
  v_caller uuid := auth.uid();
  v_admin boolean := v_caller is not null and public.is_admin();
  v_words text[];
  v_n integer;
  v_tail tsquery;
  v_parts text[] := '{}';
  v_word text;
  v_edits integer;
  v_alts text;
  v_exact tsquery;
  v_lyrics tsquery;
  v_found integer;
  v_max integer := least(greatest(coalesce(max_results, 20), 1), 100);
begin
  -- search_catalogue refuses longer texts; a direct caller (SQL only: the schema is not in the
  -- REST API) gets nothing rather than an unbounded search.
  if pg_catalog.char_length(q) > 200 then
    return;
  end if;
  select coalesce(pg_catalog.array_agg(w), '{}') into v_words
    from pg_catalog.regexp_split_to_table(
      public.search_fold(pg_catalog.btrim(coalesce(q, ''))), '[^[:alnum:]]+') as w
   where w <> '';
  v_n := pg_catalog.cardinality(v_words);
  if v_n = 0 then
    return;
  end if;
  if v_n > 1 and pg_catalog.char_length(v_words[v_n]) = 1 then
    v_tail := pg_catalog.to_tsquery('simple'::regconfig, pg_catalog.quote_literal(v_words[v_n]) || ':*');
    v_words := v_words[1:v_n - 1];
  end if;
  foreach v_word in array v_words loop
    v_edits := case when pg_catalog.char_length(v_word) >= 8 then 2
                    when pg_catalog.char_length(v_word) >= 4 then 1 else 0 end;
    v_alts := pg_catalog.quote_literal(v_word)
      || case when pg_catalog.char_length(v_word) >= 2 then ':*' else '' end;
    if v_edits > 0 then
      select v_alts || coalesce(pg_catalog.string_agg(' | ' || pg_catalog.quote_literal(x.word), ''), '')
        into v_alts
        from (select w.word
                from search.words w
               where w.word operator(extensions.%) v_word
                 and w.word <> v_word
                 and case when abs(pg_catalog.char_length(w.word) - pg_catalog.char_length(v_word)) <= v_edits
                          then extensions.levenshtein_less_equal(w.word, v_word, v_edits)
                          else v_edits + 1 end <= v_edits
               order by extensions.levenshtein_less_equal(w.word, v_word, v_edits), w.word
               limit 16) as x;
    end if;
    v_parts := v_parts || ('(' || v_alts || ')');
  end loop;
  v_exact := pg_catalog.to_tsquery('simple'::regconfig,
    (select pg_catalog.string_agg(pg_catalog.quote_literal(x), ' | ') from pg_catalog.unnest(v_words) as x));
  v_lyrics := pg_catalog.to_tsquery('simple'::regconfig,
    (select pg_catalog.string_agg(pg_catalog.quote_literal(x), ' & ') from pg_catalog.unnest(v_words) as x));
  return query
    select * from search.rank_candidates(
      pg_catalog.to_tsquery('simple'::regconfig, pg_catalog.array_to_string(v_parts, ' & ')),
      v_exact, v_lyrics, v_tail, v_caller, v_admin, 1, v_max);
  get diagnostics v_found = row_count;
  if v_found = 0 and pg_catalog.cardinality(v_parts) > 1 then
    return query
      select * from search.rank_candidates(
        pg_catalog.to_tsquery('simple'::regconfig, pg_catalog.array_to_string(v_parts, ' | ')),
        v_exact, v_lyrics, null, v_caller, v_admin, 0.5, v_max);
  end if;
end
$$;
revoke all on function search.rank_candidates(tsquery, tsquery, tsquery, tsquery, uuid, boolean,
  double precision, integer) from public;
revoke all on function search.ranked(text, integer) from public;
grant execute on function search.ranked(text, integer) to anon, authenticated, service_role;

-- search_catalogue(q, max_results): as before (same arguments, rows and checks), now through
-- search.ranked; the rows are read from public.tracks under the caller's RLS.
create or replace function public.search_catalogue(q text, max_results integer default 20)
returns setof public.tracks
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  perform public.require_argument(
    coalesce(pg_catalog.char_length(q), 0) <= 200 and coalesce(max_results, 1) between 1 and 100,
    'q must be at most 200 characters and max_results 1 to 100.');
  return query
    select t.*
      from search.ranked(q, coalesce(max_results, 20)) as r
      join public.tracks t on t.id = r.track_id
     order by r.score desc, t.plays desc, t.id;
end
$$;
revoke execute on function public.search_catalogue(text, integer) from public;
grant execute on function public.search_catalogue(text, integer) to anon, authenticated, service_role;
