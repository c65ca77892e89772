/**
 * /explore's ranked results (issue 33, docs/search.md "Ranked search"): Top result, then
 * Tracks, Artists, Albums and Playlists, matched words highlighted; "No results for …" with
 * "Did you mean …?" when nothing (or only part of the words) matched and a correction exists
 * (without one, the spec's empty list below says 'No tracks found.' alone). The spec's filtered
 * track list stays below.
 */
import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { memo } from 'react';
import {
  PREPARING_SEARCH,
  useCatalogueSearch,
  type SearchHit,
  type SearchKind,
} from '@/data/search';
import { CoverArt, SearchHitText, hitHref } from '@/features/catalogue';

/** Ranked results read per search (top result plus up to 5 per group). */
const RANKED_LIMIT = 40;
const PER_GROUP = 5;
const GROUPS: { kind: SearchKind; title: string }[] = [
  { kind: 'track', title: 'Tracks' },
  { kind: 'artist', title: 'Artists' },
  { kind: 'album', title: 'Albums' },
  { kind: 'playlist', title: 'Playlists' },
];

function HitLink({ hit, queryTerms }: { hit: SearchHit; queryTerms: readonly string[] }) {
  return (
    <Anchor
      component={Link}
      to={hitHref(hit) as '/'}
      underline="never"
      c="inherit"
      style={{ display: 'block', minWidth: 0 }}
    >
      <Group gap="sm" wrap="nowrap">
        <CoverArt
          src={hit.doc.coverImage}
          seed={hit.doc.id}
          size={40}
          kind={hit.doc.kind === 'playlist' ? 'playlist' : 'track'}
        />
        <SearchHitText hit={hit} queryTerms={queryTerms} />
      </Group>
    </Anchor>
  );
}

export interface RankedResultsProps {
  query: string;
  /** Search this text instead (the "Did you mean" correction). */
  onPick: (text: string) => void;
}

export const RankedResults = memo(function RankedResults({ query, onPick }: RankedResultsProps) {
  const search = useCatalogueSearch(query, RANKED_LIMIT, { suggest: true });
  if (!query) return null;
  const { hits, queryTerms, suggestion } = search;
  const correction = suggestion ? (
    <Text size="sm">
      Did you mean{' '}
      <Button variant="subtle" size="compact-sm" onClick={() => onPick(suggestion)}>
        {suggestion}
      </Button>
      ?
    </Text>
  ) : null;
  // The first build is running: the hits so far are the most played and the server's.
  const preparing = search.indexing ? (
    <Text size="sm" c="dimmed" role="status">
      {PREPARING_SEARCH}
    </Text>
  ) : null;
  if (hits.length === 0) {
    if (search.indexing || search.searchingServer) return preparing;
    // Nothing to offer: the list below says it in the spec's words ('No tracks found.'); three
    // ways of saying "nothing" on one screen was one too many (seen at 375 px).
    if (!correction) return null;
    return (
      <Stack gap={4} aria-label="Best matches" role="region">
        <Text fw={600}>No results for "{query}"</Text>
        {correction}
      </Stack>
    );
  }
  const [top] = hits;
  return (
    <Stack gap="md" aria-label="Best matches" role="region">
      {preparing}
      {correction}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="xs">
          <Title order={2} size="h4">
            Top result
          </Title>
          <Paper withBorder p="md" radius="md">
            {top && <HitLink hit={top} queryTerms={queryTerms} />}
          </Paper>
        </Stack>
        {GROUPS.map(({ kind, title }) => {
          const group = hits.filter((h) => h.doc.kind === kind).slice(0, PER_GROUP);
          if (group.length === 0) return null;
          return (
            <Stack gap="xs" key={kind}>
              <Title order={2} size="h4">
                {title}
              </Title>
              <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                {group.map((hit) => (
                  <li key={hit.doc.id}>
                    <HitLink hit={hit} queryTerms={queryTerms} />
                  </li>
                ))}
              </Stack>
            </Stack>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
});
