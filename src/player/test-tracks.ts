/** Test factory: `createTrack({ id: 'a' })` (used by the player's tests only). */
import type { PlayerTrack } from './types';

export function createTrack(overrides: Partial<PlayerTrack> & { id: string }): PlayerTrack {
  return {
    title: `Track ${overrides.id}`,
    artist: 'Artist',
    album: null,
    duration: 180,
    audioUrl: `https://cdn.test/${overrides.id}.mp3`,
    coverImage: `https://cdn.test/${overrides.id}.jpg`,
    uploadedBy: 'uploader-1',
    qualities: ['standard'],
    loudnessLufs: null,
    truePeakDb: null,
    ...overrides,
  };
}
