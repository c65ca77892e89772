/** The search bench's tracks (issue 33): the explore bench's catalogue as mirror rows. */
import type { Track } from '../src/data/db/models';
import { testTrack } from '../src/data/db/test-track';
import { TYPED_QUERIES, makeCatalogue, type BenchTrack } from './explore-catalogue';

/** Typed letter by letter: the explore bench's queries plus typos and swapped words. */
export const SEARCH_QUERIES = [...TYPED_QUERIES, 'mdnight rian', 'rain midnight', 'elektric luv'];

export function benchTracks(size: number): Track[] {
  return makeCatalogue(size).map((t: BenchTrack, i) =>
    testTrack(t.id, { ...t, uploadedBy: `u${i % 4000}`, plays: (i * 7919) % 50_000 }),
  );
}
