import { Container, Group, Stack, Text, Title } from '@mantine/core';
import { useDebouncedCallback } from '@/lib/use-debounced-callback';
import { useCallback, useState } from 'react';
import { useTopGenres, useTrackSearch } from '@/data/search';
import { ExploreResults } from './components/explore-results';
import { ExploreSearchBox } from './components/explore-search-box';
import { GenreChips } from './components/genre-chips';
import { RankedResults } from './components/ranked-results';
import { PAGE_SIZE, URL_DEBOUNCE_MS, exploreHeading, tracksFoundLabel } from './explore-text';

export interface ExplorePageProps {
  /** The address bar's ?q= (trimmed, '' when absent). */
  q: string;
  /** Puts the search text in the address bar ('' removes it), replacing the history entry. */
  onQueryChange: (q: string) => void;
}

/**
 * /explore?q= (spec 2): every track, filtered as you type on title, artist, album and genre
 * (case-insensitive, trimmed; blank shows all). Local index first, server when the mirror may
 * be incomplete (useTrackSearch, docs/search.md).
 */
export function ExplorePage({ q, onQueryChange }: ExplorePageProps) {
  const [text, setText] = useState(q);
  const [shownQ, setShownQ] = useState(q);
  /** The ?q= values this box asked for and not seen yet: their arrival must not undo typing. */
  const [sent, setSent] = useState<readonly string[]>([]);
  // A new ?q= from elsewhere (the top bar, a link, back/forward): adjust while rendering, unless
  // it is what this box already says (typing 'the ' keeps its space while the URL says 'the').
  if (q !== shownQ) {
    setShownQ(q);
    const mine = sent.indexOf(q);
    if (mine >= 0) setSent(sent.slice(mine + 1));
    else if (text.trim() !== q) setText(q);
  }
  const [visible, setVisible] = useState({ query: '', count: PAGE_SIZE });
  const query = text.trim();
  const limit = visible.query === query ? visible.count : PAGE_SIZE;
  const search = useTrackSearch(query, limit);
  const genres = useTopGenres(12);
  const send = (next: string) => {
    if (next === q) return;
    setSent((list) => [...list, next]);
    onQueryChange(next);
  };
  const syncUrl = useDebouncedCallback(send, URL_DEBOUNCE_MS);
  const showMore = useCallback(
    () => setVisible({ query, count: limit + PAGE_SIZE }),
    [query, limit],
  );

  const change = (value: string, now = false) => {
    setText(value);
    if (now) {
      syncUrl.cancel();
      send(value.trim());
    } else syncUrl(value.trim());
  };

  return (
    <Container size="xl" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="lg">
        <Stack gap="md">
          <Text size="sm" c="ember.3" fw={600} tt="uppercase" lts={1}>
            Explore
          </Text>
          <div style={{ maxWidth: 720 }}>
            <ExploreSearchBox value={text} onChange={(value) => change(value, value === '')} />
          </div>
          <GenreChips genres={genres} query={text} onPick={(genre) => change(genre, true)} />
        </Stack>
        <RankedResults query={query} onPick={(value) => change(value, true)} />
        <Group justify="space-between" align="baseline" gap="xs" wrap="wrap">
          <Title order={1} fz={{ base: 'h2', sm: 'h1' }} style={{ overflowWrap: 'anywhere' }}>
            {exploreHeading(query)}
          </Title>
          {!search.loading && (
            <Text c="dimmed" size="sm" aria-live="polite" role="status">
              {tracksFoundLabel(search.total)}
            </Text>
          )}
        </Group>
        <ExploreResults
          tracks={search.tracks}
          total={search.total}
          hasMore={search.hasMore}
          loading={search.loading}
          searchingServer={search.searchingServer}
          onShowMore={showMore}
          listKey={query.toLowerCase()}
        />
      </Stack>
    </Container>
  );
}
