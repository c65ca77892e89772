/**
 * The one Dexie database of the app (DESIGN 4). Versions only ever get added; an upgrade keeps
 * data (a new version with only new indexes needs no upgrade function). Keys:
 * likes [userId+trackId], follows [followerId+followingId], outbox ++seq, downloads
 * [userId+trackId].
 */
import { Dexie, type EntityTable, type Table } from 'dexie';
import type {
  DeadLetter,
  Download,
  Follow,
  HistoryEntry,
  Like,
  Lyrics,
  MetaEntry,
  OutboxEntry,
  Playlist,
  Profile,
  Track,
  Withdrawal,
} from './models';

export const DB_NAME = 'soundloft';

export class SoundloftDb extends Dexie {
  tracks!: EntityTable<Track, 'id'>;
  likes!: Table<Like, [string, string]>;
  playlists!: EntityTable<Playlist, 'id'>;
  lyrics!: EntityTable<Lyrics, 'trackId'>;
  profiles!: EntityTable<Profile, 'id'>;
  follows!: Table<Follow, [string, string]>;
  history!: EntityTable<HistoryEntry, 'id'>;
  withdrawals!: EntityTable<Withdrawal, 'id'>;
  outbox!: EntityTable<OutboxEntry, 'seq'>;
  deadLetters!: EntityTable<DeadLetter, 'mutationId'>;
  meta!: EntityTable<MetaEntry, 'key'>;
  downloads!: Table<Download, [string, string]>;

  constructor(name: string = DB_NAME) {
    super(name);
    this.version(1).stores({
      tracks: 'id, createdAt, uploadedBy, artist, album, genre, [uploadedBy+createdAt]',
      likes: '[userId+trackId], userId, trackId, [userId+createdAt]',
      playlists: 'id, createdBy, createdAt, *trackIds',
      lyrics: 'trackId',
      profiles: 'id, name, createdAt',
      follows: '[followerId+followingId], followerId, followingId',
      history: 'id, [userId+listenedAt], trackId',
      withdrawals: 'id, [userId+createdAt]',
      outbox: '++seq, mutationId, userId, [userId+seq], [userId+entity+key]',
      deadLetters: 'mutationId, userId, failedAt',
      meta: 'key',
    });
    // Issue 14: tracks carry their processing status. Rows mirrored before it came from a server
    // that showed only playable tracks: they are ready. Their new columns (loudness,
    // renditions) were never pulled, so the tracks checkpoints go and the next pull reloads all.
    this.version(2)
      .stores({ tracks: 'id, createdAt, uploadedBy, artist, album, genre, [uploadedBy+createdAt]' })
      .upgrade(async (tx) => {
        await tx
          .table('tracks')
          .toCollection()
          .modify((track: Partial<Track>) => {
            track.status ??= 'ready';
            track.processingStage ??= null;
            track.processingProgress ??= null;
            track.statusReason ??= null;
            track.loudnessLufs ??= null;
            track.truePeakDb ??= null;
            track.qualities ??= [];
          });
        await tx
          .table('meta')
          .filter((entry: MetaEntry) => /^checkpoint:.*:tracks$/.test(entry.key))
          .delete();
      });
    // Issue 17: offline downloads, local to this device (the files are in Cache Storage).
    this.version(3).stores({
      downloads: '[userId+trackId], userId, [userId+state], [userId+queuedAt]',
    });
  }
}

/** The tables the repositories write together with the outbox. */
export type MirrorTable =
  'tracks' | 'likes' | 'playlists' | 'lyrics' | 'profiles' | 'follows' | 'history' | 'withdrawals';
