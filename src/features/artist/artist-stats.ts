/** Pure figures of the artist page (spec 2): stat cards, top track, albums, latest release. */
import type { Track } from '@/data';

export interface ArtistStats {
  /** Discography: how many tracks. */
  trackCount: number;
  totalPlays: number;
  /** Seconds. */
  runtime: number;
}

export function artistStats(tracks: readonly Track[]): ArtistStats {
  let totalPlays = 0;
  let runtime = 0;
  for (const t of tracks) {
    totalPlays += t.plays;
    runtime += Number.isFinite(t.duration) && t.duration > 0 ? t.duration : 0;
  }
  return { trackCount: tracks.length, totalPlays, runtime };
}

/** Most played first; ties: newest first. */
export function byPlays(tracks: readonly Track[]): Track[] {
  return [...tracks].sort((a, b) => b.plays - a.plays || b.createdAt.localeCompare(a.createdAt));
}

/** Runtime as 'Hh MMm' (spec: runtime in h, mm), e.g. '1h 05m', '0h 07m'. */
export function formatRuntime(seconds: number): string {
  const minutes = Math.floor((Number.isFinite(seconds) && seconds > 0 ? seconds : 0) / 60);
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

export const SINGLES = 'Singles';

export interface AlbumGroup {
  /** The album's name, or 'Singles' for tracks without one. */
  name: string;
  /** In release order (oldest first, as an album is listened to). */
  tracks: Track[];
  /** The newest track's date. */
  releasedAt: string;
  plays: number;
}

/** Groups by album name ('Singles' as the fallback); newest release first, Singles last. */
export function groupAlbums(tracks: readonly Track[]): AlbumGroup[] {
  const groups = new Map<string, Track[]>();
  for (const t of tracks) {
    const name = t.album?.trim() || SINGLES;
    groups.set(name, [...(groups.get(name) ?? []), t]);
  }
  return [...groups.entries()]
    .map(([name, list]) => {
      const ordered = [...list].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      return {
        name,
        tracks: ordered,
        releasedAt: ordered[ordered.length - 1]?.createdAt ?? '',
        plays: ordered.reduce((sum, t) => sum + t.plays, 0),
      };
    })
    .sort((a, b) => {
      if ((a.name === SINGLES) !== (b.name === SINGLES)) return a.name === SINGLES ? 1 : -1;
      return b.releasedAt.localeCompare(a.releasedAt);
    });
}

/** The newest track (the latest release). */
export function latestRelease(tracks: readonly Track[]): Track | null {
  let latest: Track | null = null;
  for (const t of tracks) if (!latest || t.createdAt > latest.createdAt) latest = t;
  return latest;
}

/**
 * Verified badge: shown once moderation has approved at least one of the artist's tracks
 * (tracks.verified is set by an admin only). A newly uploaded track waiting for review does
 * not take the badge away from an artist who was already approved.
 */
export const isVerifiedArtist = (tracks: readonly Track[]): boolean =>
  tracks.some((t) => t.verified);

export const formatCount = (n: number): string => new Intl.NumberFormat('en-US').format(n);

export const formatReleaseDate = (iso: string): string => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? ''
    : d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
};
