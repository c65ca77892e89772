import { useEffect, useMemo, useState } from 'react';
import type { HistoryEntry, Track } from '../db';
import { fetchRecommendations, type RecommendationSeed } from '../remote/home-remote';
import { useAllTracksOrLoading, useHistoryOrLoading } from './hooks';

export interface RecommendationsState {
  /** True until the first answer (skeletons). */
  loading: boolean;
  /** Empty when the function failed (only logged, spec 8) or had nothing to suggest. */
  tracks: Track[];
}

/** Spec 9: without listening history, the first 5 tracks of the catalogue seed the function. */
export const FALLBACK_SEED_SIZE = 5;

/**
 * The tracks to send as `recentlyPlayed`: the user's recent listens (distinct, newest first) that
 * the mirror knows, or the first tracks of the catalogue (newest first) when there are none.
 */
export function recommendationSeeds(
  history: readonly HistoryEntry[],
  catalogue: readonly Track[],
): Track[] {
  const byId = new Map(catalogue.map((t) => [t.id, t]));
  const played: Track[] = [];
  for (const entry of history) {
    const track = byId.get(entry.trackId);
    if (track && !played.includes(track)) played.push(track);
  }
  return played.length > 0 ? played : catalogue.slice(0, FALLBACK_SEED_SIZE);
}

/**
 * 'Recommended For You': the get-recommendations function, called with the user's recently
 * played tracks (useHistory) or the catalogue's first 5. Called again when those change; the
 * previous answer stays on screen meanwhile. Both reads wait for the mirror's first full pull
 * (`...OrLoading`): skeletons until then, never 'No recommendations yet' for a mirror still
 * filling.
 */
export function useRecommendations(userId: string | null | undefined): RecommendationsState {
  const history = useHistoryOrLoading(userId);
  const catalogue = useAllTracksOrLoading();
  const loaded = history !== undefined && catalogue !== undefined;
  const seeds = useMemo(
    () => (history && catalogue ? recommendationSeeds(history, catalogue) : []),
    [history, catalogue],
  );
  const key = seeds.map((t) => t.id).join(',');
  const [result, setResult] = useState<{ key: string; tracks: Track[] } | null>(null);
  const ready = Boolean(userId) && loaded && seeds.length > 0;

  useEffect(() => {
    if (!ready) return;
    let cancelled = false;
    const payload: RecommendationSeed[] = seeds.map(({ id, title, artist, genre }) => ({
      id,
      title,
      artist,
      genre,
    }));
    // The mirror's history and catalogue often land within moments of each other: one call.
    const timer = setTimeout(() => {
      fetchRecommendations(payload)
        .catch((error: unknown) => {
          console.error('Failed to get recommendations', error);
          return [];
        })
        .then((tracks) => {
          if (!cancelled) setResult({ key, tracks });
        });
    }, 150);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
    // `key` stands for `seeds` (same ids, same request).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, key]);

  if (result) return { loading: false, tracks: result.tracks };
  if (loaded && seeds.length === 0) return { loading: false, tracks: [] };
  return { loading: true, tracks: [] };
}
