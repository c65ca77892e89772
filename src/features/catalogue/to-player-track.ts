import type { Track } from '@/data';
import type { PlayerTrack } from '@/player';

/** The player's view of a mirrored track. */
export function toPlayerTrack(track: Track): PlayerTrack {
  return {
    id: track.id,
    title: track.title,
    artist: track.artist,
    album: track.album,
    duration: track.duration,
    audioUrl: track.audioUrl,
    coverImage: track.coverImage,
    uploadedBy: track.uploadedBy,
    qualities: track.qualities,
    loudnessLufs: track.loudnessLufs,
    truePeakDb: track.truePeakDb,
  };
}

export const toPlayerTracks = (tracks: readonly Track[]): PlayerTrack[] =>
  tracks.map(toPlayerTrack);

/** Spec 3: album shown as 'Single' when missing. */
export const albumLabel = (album: string | null | undefined): string => album?.trim() || 'Single';
