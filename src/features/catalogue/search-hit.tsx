/**
 * One ranked search result (docs/search.md, "Ranked search"): where it leads, its words, and
 * its name with the matched words highlighted. Shared by the top bar's dropdown and /explore.
 */
import { Text } from '@mantine/core';
import { highlightParts } from '@/lib/fold';
import type { SearchHit, SearchKind } from '@/data/search';

export const KIND_LABEL: Record<SearchKind, string> = {
  track: 'Track',
  artist: 'Artist',
  album: 'Album',
  playlist: 'Playlist',
};

/** The page a result opens. */
export function hitHref(hit: SearchHit): string {
  const { doc } = hit;
  switch (doc.kind) {
    case 'track':
      return `/track/${doc.key}`;
    case 'artist':
      return `/artist/${encodeURIComponent(doc.name)}`;
    case 'album':
      return `/artist/${encodeURIComponent(doc.artist)}`;
    case 'playlist':
      return `/playlist/${doc.key}`;
  }
}

/** The line under the name: kind and artist ('Track · Neon Harbor'). */
export function hitSubtitle(hit: SearchHit): string {
  const { doc } = hit;
  return doc.artist ? `${KIND_LABEL[doc.kind]} · ${doc.artist}` : KIND_LABEL[doc.kind];
}

/** `text` with the words the search matched in <mark>. */
export function Highlighted({
  text,
  hit,
  queryTerms,
}: {
  text: string;
  hit: SearchHit;
  queryTerms: readonly string[];
}) {
  const parts = highlightParts(text, hit.terms, queryTerms);
  return (
    <>
      {parts.map((p, i) =>
        p.hit ? (
          <mark key={i} className="search-mark">
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}

/** Name (highlighted) over kind and artist: a dropdown option's or a result card's text. */
export function SearchHitText({
  hit,
  queryTerms,
}: {
  hit: SearchHit;
  queryTerms: readonly string[];
}) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="sm" fw={600} truncate>
        <Highlighted text={hit.doc.name} hit={hit} queryTerms={queryTerms} />
      </Text>
      <Text size="xs" c="dimmed" truncate>
        {hitSubtitle(hit)}
      </Text>
    </div>
  );
}
