/** The repositories: every read and write of the app's data (CONVENTIONS habit 3). */
import { createHistoryRepository } from './history-repository';
import { createFollowsRepository, createLikesRepository } from './likes-repository';
import { createLyricsRepository } from './lyrics-repository';
import { createPlaylistsRepository } from './playlists-repository';
import { createProfileRepository } from './profile-repository';
import type { RepositoryDeps } from './context';

export function createRepositories(deps: RepositoryDeps) {
  return {
    likes: createLikesRepository(deps),
    follows: createFollowsRepository(deps),
    playlists: createPlaylistsRepository(deps),
    lyrics: createLyricsRepository(deps),
    profile: createProfileRepository(deps),
    history: createHistoryRepository(deps),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
export type { RepositoryDeps } from './context';
export { normaliseLyricLines, NO_LYRICS_MESSAGE } from './lyrics-repository';
export * from './queries';
