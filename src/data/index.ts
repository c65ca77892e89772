/**
 * src/data: the app's data layer. Components read with the hooks and write with `repositories`;
 * the sync engine (startSync/stopSync with the session) does the rest. docs/sync.md.
 */
import { authStore } from './auth/auth-store';
import { getDb } from './db';
import { createRepositories, type Repositories } from './repositories';
import { notifyWrite } from './sync/leader';

// Not re-exported here, so that they stay out of the chunk every signed-in page loads (whatever
// this file re-exports sits in that chunk, wherever it is used): the payouts, admin, payments,
// uploads and stems calls, the search, the waveforms, and the hooks of one screen each (artist,
// profile, track, playlist lookups, recommendations, friends activity, server reads). Their
// screens import them from their modules ('@/data/search', '@/data/remote/admin-remote', ...;
// docs/architecture.md, "Session 10").
export * from './repositories/hooks';
export { useMirrorLoading } from './repositories/use-mirror-loading';
export * from './sync';
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
