/**
 * Where autoplay's tracks come from (docs/player.md § Autoplay): online, the recommendations
 * function the home screen uses (`get-recommendations`, seeded with the track that ended and the
 * end of the queue); offline, or when the function fails, the downloaded tracks related to the
 * one that ended (same artist or album). Nothing found: the player stays stopped.
 */
import { isDownloaded } from '@/data';
import { getDb } from '@/data/db';
import { allTracks } from '@/data/repositories/queries';
import { fetchRecommendations } from '@/data/remote/home-remote';
import { toPlayerTracks } from '@/features/catalogue';
import { relatedTracks, type PlayerTrack } from '@/player';
import type { AutoplaySource } from '@/player/autoplay';

/** How many of the queue's last tracks seed the recommendations (with the one that ended). */
const SEED_TRACKS = 5;

export function createAutoplaySource(userId: string): AutoplaySource {
  return async (ended, queue) => {
    const catalogue = await allTracks(getDb());
    const byId = new Map(catalogue.map((t) => [t.id, t]));
    if (navigator.onLine) {
      const seeds = [ended, ...queue.filter((t) => t.id !== ended.id).reverse()]
        .slice(0, SEED_TRACKS)
        .map((t) => byId.get(t.id))
        .filter((t) => t !== undefined);
      try {
        const found = await fetchRecommendations(seeds.length > 0 ? seeds : catalogue.slice(0, 5));
        if (found.length > 0) return toPlayerTracks(found);
      } catch {
        // Unreachable after all: the downloads below.
      }
    }
    const downloaded: PlayerTrack[] = [];
    for (const track of toPlayerTracks(catalogue)) {
      if (track.id !== ended.id && (await isDownloaded(userId, track.id))) downloaded.push(track);
    }
    return relatedTracks(ended, downloaded);
  };
}
