-- Ranked catalogue search on the server (issue 33, docs/search.md "Ranked search"): typo
-- tolerant, diacritics and case folded, ranked by relevance with plays as the tie-breaker.
-- The app merges these rows into its local MiniSearch index (by id, no duplicates) and ranks
-- the union; this function finds the candidates the mirror may not hold.
--
-- unaccent ships with PostgreSQL (contrib), hosted Supabase and PGlite (0.5:
-- @electric-sql/pglite/contrib/unaccent, loaded in server/db/pglite.ts).
create extension if not exists unaccent with schema extensions;

-- Folding: unaccent, then lower case ('Beyoncé' = 'beyonce'). unaccent() is only stable (its
-- dictionary could change); with the dictionary named this is deterministic, so the wrapper is
-- declared immutable for the indexes below, as is usual with unaccent.
create or replace function public.search_fold(t text) returns text
language sql immutable parallel safe strict
as $$
  select pg_catalog.lower(extensions.unaccent('extensions.unaccent'::regdictionary, t))
$$;
revoke execute on function public.search_fold(text) from public;
grant execute on function public.search_fold(text) to anon, authenticated, service_role;

-- A track's words, weighted: title A, artist B, album C, genre D.
create or replace function public.track_search_vector(
  title text, artist text, album text, genre text
) returns tsvector
language sql immutable parallel safe
as $$
  select pg_catalog.setweight(pg_catalog.to_tsvector('simple'::regconfig, public.search_fold(title)), 'A')
      || pg_catalog.setweight(pg_catalog.to_tsvector('simple'::regconfig, public.search_fold(artist)), 'B')
      || pg_catalog.setweight(pg_catalog.to_tsvector('simple'::regconfig, public.search_fold(coalesce(album, ''))), 'C')
      || pg_catalog.setweight(pg_catalog.to_tsvector('simple'::regconfig, public.search_fold(coalesce(genre, ''))), 'D')
$$;
-- The same fields as one folded text, for trigram word similarity (typos).
create or replace function public.track_search_folded(
  title text, artist text, album text, genre text
) returns text
language sql immutable parallel safe
as $$
  select public.search_fold(
    title || ' ' || artist || ' ' || coalesce(album, '') || ' ' || coalesce(genre, '')
  )
$$;
-- A lyrics sheet's text (the lines of track_lyrics.lyrics), folded, as words.
create or replace function public.lyrics_search_vector(lyrics jsonb) returns tsvector
language sql immutable parallel safe
as $$
  select pg_catalog.to_tsvector('simple'::regconfig, public.search_fold(coalesce(
    (select pg_catalog.string_agg(line ->> 'text', ' ')
       from pg_catalog.jsonb_array_elements(lyrics) as line), '')))
$$;
revoke execute on function public.track_search_vector(text, text, text, text) from public;
revoke execute on function public.track_search_folded(text, text, text, text) from public;
revoke execute on function public.lyrics_search_vector(jsonb) from public;
grant execute on function public.track_search_vector(text, text, text, text),
  public.track_search_folded(text, text, text, text), public.lyrics_search_vector(jsonb)
  to anon, authenticated, service_role;

create index tracks_search_vector_idx on public.tracks
  using gin (public.track_search_vector(title, artist, album, genre));
create index tracks_search_folded_trgm_idx on public.tracks
  using gin (public.track_search_folded(title, artist, album, genre) extensions.gin_trgm_ops);
create index track_lyrics_search_vector_idx on public.track_lyrics
  using gin (public.lyrics_search_vector(lyrics));

-- search_catalogue(q, max_results): the best max_results (1..100, default 20) tracks for q,
-- best first. Candidates: every word as a prefix in title/artist/album/genre (full text,
-- weighted), the whole text by trigram word similarity (typos: 'papr lanterns'), and the text's
-- words in the lyrics (weighted low). Each branch takes at most 2,000 candidates, so a very
-- common word costs a bounded amount. Score: the branches' ranks summed, times a popularity
-- factor (1 + 0.04 log10(1 + plays)), ties by id. Security invoker: the caller's RLS applies
-- (taken-down and unpublished tracks stay hidden as everywhere).
create or replace function public.search_catalogue(q text, max_results integer default 20)
returns setof public.tracks
language plpgsql
volatile -- it sets the trigram threshold for its own statement
security invoker
set search_path = ''
as $$
declare
  v_folded text;
  v_words text[];
  v_prefix tsquery;
  v_plain tsquery;
  v_threshold text := pg_catalog.current_setting('pg_trgm.word_similarity_threshold');
begin
  perform public.require_argument(
    coalesce(pg_catalog.char_length(q), 0) <= 200 and coalesce(max_results, 1) between 1 and 100,
    'q must be at most 200 characters and max_results 1 to 100.');
  v_folded := public.search_fold(pg_catalog.btrim(coalesce(q, '')));
  select coalesce(pg_catalog.array_agg(w), '{}') into v_words
    from pg_catalog.regexp_split_to_table(v_folded, '[^[:alnum:]]+') as w where w <> '';
  if pg_catalog.cardinality(v_words) = 0 then
    return;
  end if;
  v_folded := pg_catalog.array_to_string(v_words, ' ');
  v_prefix := pg_catalog.to_tsquery('simple'::regconfig, (
    select pg_catalog.string_agg(pg_catalog.quote_literal(w) || ':*', ' & ') from pg_catalog.unnest(v_words) as w));
  v_plain := pg_catalog.to_tsquery('simple'::regconfig, (
    select pg_catalog.string_agg(pg_catalog.quote_literal(w), ' & ') from pg_catalog.unnest(v_words) as w));
  perform pg_catalog.set_config('pg_trgm.word_similarity_threshold', '0.5', true);
  return query
    with candidates as (
      (select t.id, 2 * pg_catalog.ts_rank('{0.1, 0.4, 0.6, 1.0}'::real[],
                public.track_search_vector(t.title, t.artist, t.album, t.genre), v_prefix) as r
         from public.tracks t
        where public.track_search_vector(t.title, t.artist, t.album, t.genre) @@ v_prefix
        limit 2000)
      union all
      (select t.id, extensions.word_similarity(v_folded,
                public.track_search_folded(t.title, t.artist, t.album, t.genre)) as r
         from public.tracks t
        where v_folded operator(extensions.<%)
              public.track_search_folded(t.title, t.artist, t.album, t.genre)
        limit 2000)
      union all
      (select l.track_id, 0.2 * pg_catalog.ts_rank(public.lyrics_search_vector(l.lyrics), v_plain)
         from public.track_lyrics l
        where public.lyrics_search_vector(l.lyrics) @@ v_plain
        limit 2000)
    ), scored as (
      select c.id, sum(c.r) as r from candidates c group by c.id
    )
    select t.* from scored s join public.tracks t on t.id = s.id
     order by s.r * (1 + 0.04 * pg_catalog.log(1 + greatest(t.plays, 0))) desc, t.id
     limit coalesce(max_results, 20);
  perform pg_catalog.set_config('pg_trgm.word_similarity_threshold', v_threshold, true);
end
$$;
revoke execute on function public.search_catalogue(text, integer) from public;
grant execute on function public.search_catalogue(text, integer) to anon, authenticated, service_role;
