/** Reads of the mirror (plain async functions; hooks.ts wraps them in live queries). */
import type {
  HistoryEntry,
  Lyrics,
  Playlist,
  Profile,
  SoundloftDb,
  Track,
  Withdrawal,
} from '../db';

/**
 * Whether a track is in the catalogue. Listeners only ever receive ready tracks; the uploader's
 * own mirror also holds their tracks still processing or failed, which only Your Uploads shows.
 */
export const isListed = (track: Track): boolean => track.status === 'ready';

/** fetchAllTracks: the whole catalogue, newest first. */
export async function allTracks(db: SoundloftDb): Promise<Track[]> {
  return db.tracks.orderBy('createdAt').reverse().filter(isListed).toArray();
}

/** The newest tracks of the catalogue (home's Recently Added). */
export async function recentTracks(db: SoundloftDb, limit: number): Promise<Track[]> {
  return db.tracks.orderBy('createdAt').reverse().filter(isListed).limit(limit).toArray();
}

const uploadsOf = (db: SoundloftDb, userId: string) =>
  db.tracks.where('[uploadedBy+createdAt]').between([userId, ''], [userId, '\uffff']);

const likesOf = (db: SoundloftDb, userId: string) =>
  db.likes.where('[userId+createdAt]').between([userId, ''], [userId, '\uffff']);

export const countUploads = (db: SoundloftDb, userId: string) => uploadsOf(db, userId).count();
export const countLikes = (db: SoundloftDb, userId: string) => likesOf(db, userId).count();
export const countPlaylists = (db: SoundloftDb, userId: string) =>
  db.playlists.where('createdBy').equals(userId).count();

/** fetchUserTracks: one uploader's tracks, newest first. */
export async function tracksByUploader(db: SoundloftDb, userId: string): Promise<Track[]> {
  return uploadsOf(db, userId).reverse().toArray();
}

export async function tracksByArtist(db: SoundloftDb, artist: string): Promise<Track[]> {
  const rows = await db.tracks.where('artist').equals(artist).filter(isListed).toArray();
  return rows.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

export async function likedTrackIds(db: SoundloftDb, userId: string): Promise<string[]> {
  const likes = await likesOf(db, userId).reverse().toArray();
  return likes.map((l) => l.trackId);
}

/** fetchLikedTracks: newest like first; likes of tracks not in the mirror are skipped. */
export async function likedTracks(db: SoundloftDb, userId: string): Promise<Track[]> {
  const ids = await likedTrackIds(db, userId);
  const tracks = await db.tracks.bulkGet(ids);
  return tracks.filter((t): t is Track => Boolean(t));
}

/** fetchPlaylists: a creator's playlists, newest first. */
export async function playlistsOf(db: SoundloftDb, userId: string): Promise<Playlist[]> {
  const rows = await db.playlists.where('createdBy').equals(userId).toArray();
  return rows.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

export async function playlistById(db: SoundloftDb, id: string): Promise<Playlist | null> {
  return (await db.playlists.get(id)) ?? null;
}

/** fetchPlaylistTracks: in the playlist's order. */
export async function playlistTracks(db: SoundloftDb, id: string): Promise<Track[]> {
  const playlist = await db.playlists.get(id);
  if (!playlist) return [];
  const tracks = await db.tracks.bulkGet(playlist.trackIds);
  return tracks.filter((t): t is Track => Boolean(t));
}

export async function lyricsOf(db: SoundloftDb, trackId: string): Promise<Lyrics | null> {
  return (await db.lyrics.get(trackId)) ?? null;
}

export async function profileOf(db: SoundloftDb, id: string): Promise<Profile | null> {
  return (await db.profiles.get(id)) ?? null;
}

export async function followingIds(db: SoundloftDb, userId: string): Promise<string[]> {
  return (await db.follows.where('followerId').equals(userId).toArray()).map((f) => f.followingId);
}

/** The user's latest listens, newest first (spec: history 10). */
export async function recentHistory(
  db: SoundloftDb,
  userId: string,
  limit = 10,
): Promise<HistoryEntry[]> {
  return db.history
    .where('[userId+listenedAt]')
    .between([userId, ''], [userId, '\uffff'])
    .reverse()
    .limit(limit)
    .toArray();
}

export async function withdrawalsOf(db: SoundloftDb, userId: string): Promise<Withdrawal[]> {
  return db.withdrawals
    .where('[userId+createdAt]')
    .between([userId, ''], [userId, '\uffff'])
    .reverse()
    .toArray();
}

/** Uploads this month (an earlier month in monthlyUploadsMonth means none yet). */
export function uploadsThisMonth(profile: Profile, now = new Date()): number {
  const month = `${now.toISOString().slice(0, 7)}-01`;
  return profile.monthlyUploadsMonth.slice(0, 10) === month ? profile.monthlyUploads : 0;
}
