/**
 * The seed plan: the catalogue made concrete for one database — user ids, storage object names
 * and bytes, relative public URLs, release dates, lyrics — ready to be uploaded and inserted.
 */
import { randomUUID } from 'node:crypto';
import { renditionObjects } from '../processing/record';
import { publicObjectPath } from '../storage/service';
import type { Catalogue, CatalogueTrack, CatalogueUser } from './catalogue';
import type { GeneratedMedia } from './generate';
import type { SeedProcessed } from './media';
import { syncLyrics, type LyricLine } from './lyrics';

export interface PlannedUser extends CatalogueUser {
  id: string;
  email: string;
  /** bcrypt hash stored in auth.users.encrypted_password. */
  passwordHash: string;
  avatarUrl: string | null;
  joinedAt: Date;
}

export interface PlannedObject {
  bucket: 'tracks' | 'covers' | 'avatars' | 'renditions';
  name: string;
  owner: string;
  bytes: Uint8Array;
  contentType: string;
}

export interface PlannedTrack extends CatalogueTrack {
  /** Chosen here: the renditions' object names start with it. */
  id: string;
  uploadedBy: string;
  duration: number;
  audioUrl: string;
  coverUrl: string;
  releasedAt: Date;
  lyricLines: LyricLine[] | null;
  /** What the upload pipeline made of the audio; null: inserted in processing (the queue does it). */
  processed: SeedProcessed | null;
}

export interface SeedPlan {
  users: PlannedUser[];
  objects: PlannedObject[];
  tracks: PlannedTrack[];
  catalogue: Catalogue;
  now: Date;
}

const DAY_MS = 86_400_000;

/** `Harbor Lights` → `Harbor_Lights` (whitespace to underscores, as the upload page does). */
export function fileName(title: string): string {
  return title
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9_.-]/g, '');
}

export function buildSeedPlan(
  catalogue: Catalogue,
  media: GeneratedMedia,
  o: { adminEmail: string; hashes: Map<string, string>; now: Date; skip: Set<string> },
): SeedPlan {
  const now = o.now.getTime();
  const users: PlannedUser[] = [];
  const objects: PlannedObject[] = [];
  for (const user of catalogue.users) {
    if (o.skip.has(user.key)) continue;
    const id = randomUUID();
    const joinedAt = new Date(now - user.joinedDaysAgo * DAY_MS);
    let avatarUrl: string | null = null;
    const avatar = media.avatars.get(user.key);
    if (avatar) {
      const name = `${id}/${id}-${joinedAt.getTime()}.png`;
      objects.push({ bucket: 'avatars', name, owner: id, bytes: avatar, contentType: 'image/png' });
      avatarUrl = publicObjectPath('avatars', name);
    }
    const hash = o.hashes.get(user.key);
    if (!hash) throw new Error(`no password hash for ${user.key}`);
    users.push({
      ...user,
      id,
      email: user.email ?? o.adminEmail,
      passwordHash: hash,
      avatarUrl,
      joinedAt,
    });
  }
  const idOf = new Map(users.map((u) => [u.key, u.id]));

  const coverUrls = new Map<string, string>();
  const tracks: PlannedTrack[] = catalogue.tracks.map((track) => {
    const uploadedBy = idOf.get(track.artistKey);
    const audio = media.tracks.get(track.key);
    if (!uploadedBy || !audio) throw new Error(`incomplete media for ${track.key}`);
    const releasedAt = new Date(
      now -
        track.daysAgo * DAY_MS -
        track.minuteOffset * 60_000 -
        (track.daysAgo === 0 ? 3_600_000 : 0),
    );
    let coverUrl = coverUrls.get(track.coverKey);
    if (!coverUrl) {
      const bytes = media.covers.get(track.coverKey);
      if (!bytes) throw new Error(`no cover for ${track.coverKey}`);
      const name = `${uploadedBy}/${releasedAt.getTime()}_${fileName(track.album ?? track.title)}.png`;
      objects.push({ bucket: 'covers', name, owner: uploadedBy, bytes, contentType: 'image/png' });
      coverUrl = publicObjectPath('covers', name);
      coverUrls.set(track.coverKey, coverUrl);
    }
    const id = randomUUID();
    const name = `${uploadedBy}/${releasedAt.getTime()}_${fileName(track.title)}.mp3`;
    objects.push({
      bucket: 'tracks',
      name,
      owner: uploadedBy,
      bytes: audio.mp3,
      contentType: 'audio/mpeg',
    });
    if (audio.processed)
      objects.push(...renditionObjects(id, uploadedBy, audio.processed, audio.mp3));
    return {
      ...track,
      id,
      uploadedBy,
      duration: Math.round(audio.durationSeconds),
      // As the app stores it: bucket and name (the bucket is private; players sign URLs).
      audioUrl: `tracks/${name}`,
      coverUrl,
      releasedAt,
      lyricLines: track.lyrics ? syncLyrics(track.lyrics, audio.phrases, track.seed) : null,
      processed: audio.processed,
    };
  });
  return { users, objects, tracks, catalogue, now: o.now };
}
