/**
 * src/data: the app's data layer. Components read with the hooks and write with `repositories`;
 * the sync engine (startSync/stopSync with the session) does the rest. docs/sync.md.
 */
import { authStore } from './auth/auth-store';
import { getDb } from './db';
import { createRepositories, type Repositories } from './repositories';
import { notifyWrite } from './sync/leader';

// Not re-exported here, so that they stay out of the chunk every signed-in page loads: the
// payouts, admin, payments, uploads and stems calls. Their screens import them from their
// modules ('@/data/remote/admin-remote', ...; docs/architecture.md, "Session 10").
export * from './repositories/hooks';
export * from './repositories/use-friends-activity';
export * from './repositories/use-recommendations';
export { useMirrorLoading } from './repositories/use-mirror-loading';
export * from './repositories/artist-lookup';
export * from './repositories/use-server-read';
export * from './repositories/profile-lookup';
export * from './repositories/track-page-hooks';
export { usePlaylistLookup, type PlaylistLookup } from './repositories/use-playlist-lookup';
export * from './sync';
export * from './search';
export { dbHealthStore, type DbHealth } from './db';
export type * from './db/models';
export {
  createRepositories,
  normaliseLyricLines,
  NO_LYRICS_MESSAGE,
  uploadsThisMonth,
} from './repositories';
export { createAudioSource, isUnreachable, type AudioSourceTrack } from './remote/audio-remote';
export * from './downloads';
export { fetchWaveform, type Waveform } from './remote/waveform-remote';
export { useWaveform } from './repositories/use-waveform';

let repositories: Repositories | null = null;

/** The app's repositories: the signed-in user from the auth store, writes nudge the sync. */
export function getRepositories(): Repositories {
  repositories ??= createRepositories({
    db: getDb(),
    currentUserId: () => authStore.getSnapshot().session?.user.id ?? null,
    onWrite: notifyWrite,
  });
  return repositories;
}
