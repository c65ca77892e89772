-- Catalogue search on the server (docs/search.md): the newest tracks whose title, artist, album or
-- genre contains a text, case-insensitively. The app asks it while its local mirror may not hold
-- the whole catalogue; every row it gets back is checked again in the browser with the exact
-- filter of the explore screen, so this may return a little more than the filter, never less.

-- One lower-cased text per track (fields joined by a newline, which the search box cannot type),
-- indexed by trigrams: one index scan per search instead of four (title, artist, album, genre).
-- Everything schema-qualified, no search_path setting: the expression stays inlinable.
create or replace function public.track_search_text(
  title text, artist text, album text, genre text
) returns text
language sql immutable parallel safe
as $$
  select pg_catalog.lower(
    title || E'\n' || artist || E'\n' || coalesce(album, '') || E'\n' || coalesce(genre, '')
  )
$$;
revoke execute on function public.track_search_text(text, text, text, text) from public;
grant execute on function public.track_search_text(text, text, text, text)
  to anon, authenticated, service_role;

create index tracks_search_text_trgm_idx on public.tracks
  using gin (public.track_search_text(title, artist, album, genre) extensions.gin_trgm_ops);

-- search_tracks(q, max_results): the newest max_results (1..1000, default 100) tracks matching q
-- (trimmed; blank = all), newest first, then id descending (the mirror's order). Security
-- invoker: the caller's RLS applies.
-- Plan: trigram statistics cannot tell a text with 300 matches from one with 30,000, and the
-- wrong guess is costly either way (walking the created_at index past 100,000 rows for a rare
-- text; fetching and sorting 50,000 rows for a common one). So for texts of three characters or
-- more the function first counts matches through the trigram index, stopping at 2,001: up to
-- 2,000 are fetched through that index and sorted; more mean matches are dense, and walking the
-- created_at index finds the newest at once. Shorter texts have no trigram: always the walk.
create or replace function public.search_tracks(q text, max_results integer default 100)
returns setof public.tracks
language plpgsql
volatile -- it sets planner settings for its own statements
security invoker
set search_path = ''
as $$
declare
  v_text text := pg_catalog.lower(pg_catalog.btrim(coalesce(q, '')));
  v_limit integer := least(greatest(coalesce(max_results, 100), 1), 1000);
  v_pattern text;
  v_seqscan text := pg_catalog.current_setting('enable_seqscan');
  v_indexscan text := pg_catalog.current_setting('enable_indexscan');
  v_matches integer := null;
  c_select constant text := 'select t.* from public.tracks t
      where public.track_search_text(t.title, t.artist, t.album, t.genre) like $1
      order by t.created_at desc, t.id desc
      limit $2';
begin
  if v_text = '' then
    return query
      select t.* from public.tracks t order by t.created_at desc, t.id desc limit v_limit;
    return;
  end if;
  v_pattern := '%' || pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(
                 v_text, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  if pg_catalog.length(v_text) >= 3 then
    -- Trigram index only (transaction-local settings, restored below).
    perform pg_catalog.set_config('enable_seqscan', 'off', true);
    perform pg_catalog.set_config('enable_indexscan', 'off', true);
    execute 'select count(*) from (select 1 from public.tracks t
               where public.track_search_text(t.title, t.artist, t.album, t.genre) like $1
               limit 2001) s'
      into v_matches using v_pattern;
    if v_matches <= 2000 then
      return query execute c_select using v_pattern, v_limit;
    end if;
    perform pg_catalog.set_config('enable_seqscan', v_seqscan, true);
    perform pg_catalog.set_config('enable_indexscan', v_indexscan, true);
    if v_matches <= 2000 then
      return;
    end if;
  end if;
  return query execute c_select using v_pattern, v_limit;
end
$$;
revoke execute on function public.search_tracks(text, integer) from public;
grant execute on function public.search_tracks(text, integer) to anon, authenticated, service_role;
