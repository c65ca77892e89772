/**
 * Playlists (spec 4, 5): create(name, description) with a non-blank name, delete, add a track
 * (already there: nothing), remove, reorder, rename; only the creator changes a playlist.
 */
import type { Playlist } from '../db';
import { requireUser, write, type RepositoryDeps } from './context';

export function createPlaylistsRepository(deps: RepositoryDeps) {
  const { db } = deps;

  async function own(userId: string, id: string, failure: string): Promise<Playlist> {
    const playlist = await db.playlists.get(id);
    if (!playlist) throw new Error('Playlist not found');
    if (playlist.createdBy !== userId) throw new Error(failure);
    return playlist;
  }

  return {
    async create(name: string, description = ''): Promise<Playlist> {
      const userId = requireUser(deps);
      const trimmed = name.trim();
      if (!trimmed) throw new Error('Playlist name is required');
      const now = new Date().toISOString();
      const playlist: Playlist = {
        id: crypto.randomUUID(),
        name: trimmed,
        description: description.trim(),
        coverImage: null,
        createdBy: userId,
        trackIds: [],
        createdAt: now,
        updatedAt: now,
      };
      await write(deps, ['playlists'], async (queue) => {
        await db.playlists.add(playlist);
        await queue({
          userId,
          op: 'playlist.create',
          entity: 'playlist',
          key: playlist.id,
          payload: { id: playlist.id, name: playlist.name, description: playlist.description },
        });
      });
      return playlist;
    },

    async delete(id: string): Promise<void> {
      const userId = requireUser(deps);
      await write(deps, ['playlists'], async (queue) => {
        await own(userId, id, 'Failed to delete playlist');
        await db.playlists.delete(id);
        await queue({
          userId,
          op: 'playlist.delete',
          entity: 'playlist',
          key: id,
          payload: { id },
        });
      });
    },

    /** addTrackToPlaylist: false when the track was already there (nothing happens). */
    async addTrack(playlistId: string, trackId: string): Promise<boolean> {
      const userId = requireUser(deps);
      return write(deps, ['playlists'], async (queue) => {
        const playlist = await own(userId, playlistId, 'Failed to add track to playlist');
        if (playlist.trackIds.includes(trackId)) return false;
        await db.playlists.update(playlistId, { trackIds: [...playlist.trackIds, trackId] });
        await queue({
          userId,
          op: 'playlist.add_track',
          entity: 'playlist',
          key: playlistId,
          payload: { id: playlistId, track_id: trackId },
        });
        return true;
      });
    },

    async removeTrack(playlistId: string, trackId: string): Promise<void> {
      const userId = requireUser(deps);
      await write(deps, ['playlists'], async (queue) => {
        const playlist = await own(userId, playlistId, 'Failed to update playlist');
        if (!playlist.trackIds.includes(trackId)) return;
        await db.playlists.update(playlistId, {
          trackIds: playlist.trackIds.filter((t) => t !== trackId),
        });
        await queue({
          userId,
          op: 'playlist.remove_track',
          entity: 'playlist',
          key: playlistId,
          payload: { id: playlistId, track_id: trackId },
        });
      });
    },

    /** The new order of the playlist's tracks (unknown ids ignored, missing ones kept last). */
    async reorder(playlistId: string, trackIds: string[]): Promise<void> {
      const userId = requireUser(deps);
      await write(deps, ['playlists'], async (queue) => {
        const playlist = await own(userId, playlistId, 'Failed to update playlist');
        const current = new Set(playlist.trackIds);
        const wanted = [...new Set(trackIds)].filter((t) => current.has(t));
        const next = [...wanted, ...playlist.trackIds.filter((t) => !wanted.includes(t))];
        await db.playlists.update(playlistId, { trackIds: next });
        await queue({
          userId,
          op: 'playlist.reorder',
          entity: 'playlist',
          key: playlistId,
          payload: { id: playlistId, track_ids: next },
        });
      });
    },

    async update(playlistId: string, changes: { name?: string; description?: string }) {
      const userId = requireUser(deps);
      await write(deps, ['playlists'], async (queue) => {
        const playlist = await own(userId, playlistId, 'Failed to update playlist');
        const patch: { name?: string; description?: string } = {};
        if (changes.name !== undefined) {
          const name = changes.name.trim();
          if (!name) throw new Error('Playlist name is required');
          if (name !== playlist.name) patch.name = name;
        }
        if (
          changes.description !== undefined &&
          changes.description.trim() !== playlist.description
        )
          patch.description = changes.description.trim();
        if (!Object.keys(patch).length) return;
        await db.playlists.update(playlistId, patch);
        await queue({
          userId,
          op: 'playlist.update',
          entity: 'playlist',
          key: playlistId,
          payload: { id: playlistId, ...patch },
        });
      });
    },
  };
}
