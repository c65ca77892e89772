/**
 * The app's models of the mirrored entities (spec 3): camelCase fields, server timestamps kept
 * as the server's ISO strings. Display rules (album 'Single', placeholder cover) stay in the UI.
 */
export interface Track {
  id: string;
  title: string;
  artist: string;
  album: string | null;
  genre: string | null;
  duration: number;
  audioUrl: string;
  coverImage: string | null;
  uploadedBy: string;
  plays: number;
  verified: boolean;
  createdAt: string;
  updatedAt: string;
  /** Set when an admin took the track down: only its uploader (and admins) still receive it. */
  takenDownAt?: string;
  /** Why it was taken down (shown to the uploader). */
  takedownReason?: string;
  /** Processing (issue 14): listeners only ever see 'ready'; the uploader sees every status. */
  status: TrackStatus;
  /** The stage while processing (queued, checking, decoding, waveform, loudness, encoding). */
  processingStage: ProcessingStage | null;
  /** 0..1 within the current stage, when the stage reports it (encoding). */
  processingProgress: number | null;
  /** Why processing failed, in words for the artist. */
  statusReason: string | null;
  /** Integrated loudness (EBU R128, LUFS) and true peak (dBTP), for normalisation. */
  loudnessLufs: number | null;
  truePeakDb: number | null;
  /** The renditions that exist, lowest first (empty: an old row, play audioUrl). */
  qualities: AudioQuality[];
}

export type TrackStatus = 'processing' | 'ready' | 'failed';
export type ProcessingStage =
  'queued' | 'checking' | 'decoding' | 'waveform' | 'loudness' | 'encoding';
export type AudioQuality = 'standard' | 'high' | 'lossless';

export interface Like {
  userId: string;
  trackId: string;
  id: string;
  createdAt: string;
}

export interface Playlist {
  id: string;
  name: string;
  description: string;
  coverImage: string | null;
  createdBy: string;
  trackIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface LyricLine {
  id: string;
  text: string;
  timestamp: number;
  annotation?: string;
}

export interface Lyrics {
  trackId: string;
  lines: LyricLine[];
  language: string;
  isSynced: boolean;
  lastEditedBy: string | null;
  updatedAt: string;
}

export interface SocialLinks {
  twitter?: string | null;
  instagram?: string | null;
  spotify?: string | null;
}

export interface Profile {
  id: string;
  name: string;
  avatar: string | null;
  bio: string | null;
  socialLinks: SocialLinks;
  featuredTrack: string | null;
  featuredPlaylist: string | null;
  subscriptionPlan: string;
  monthlyUploads: number;
  monthlyUploadsMonth: string;
  followers: number;
  createdAt: string;
  updatedAt: string;
  /** Own profile only (profiles_private). */
  email?: string | null;
  balance?: number;
}

export interface Follow {
  followerId: string;
  followingId: string;
  createdAt: string;
}

export interface HistoryEntry {
  id: string;
  userId: string;
  trackId: string;
  listenedAt: string;
}

export interface Withdrawal {
  id: string;
  userId: string;
  amount: number;
  method: string;
  details: string;
  status: string;
  createdAt: string;
  updatedAt: string;
}

/** The entities the outbox writes (docs/sync.md: adding an entity). */
export type Entity = 'like' | 'follow' | 'playlist' | 'lyrics' | 'profile' | 'play';

export type OutboxOp =
  | 'like.add'
  | 'like.remove'
  | 'follow.add'
  | 'follow.remove'
  | 'playlist.create'
  | 'playlist.update'
  | 'playlist.delete'
  | 'playlist.add_track'
  | 'playlist.remove_track'
  | 'playlist.reorder'
  | 'lyrics.save'
  | 'profile.update'
  | 'play.record'
  | 'play.offline';

export interface OutboxEntry {
  seq?: number;
  /** Client-generated, sent to the server: a replay of the same id has no second effect. */
  mutationId: string;
  userId: string;
  op: OutboxOp;
  entity: Entity;
  /** The row the op writes, as the mirror keys it (e.g. `${userId}:${trackId}` for likes). */
  key: string;
  /** The server-side arguments (snake_case). */
  payload: Record<string, unknown>;
  createdAt: number;
  attempts: number;
  nextAttemptAt: number;
  /** inflight: being sent, outcome unknown; reset to pending on start. */
  status: 'pending' | 'inflight';
  /**
   * Sent at least once: the server may have applied it (answer lost), so it is never collapsed
   * or merged again; a replay with the same mutationId has no second effect.
   */
  sent?: boolean;
}

export interface DeadLetter {
  mutationId: string;
  userId: string;
  op: OutboxOp;
  entity: Entity;
  key: string;
  payload: Record<string, unknown>;
  code: string;
  message: string;
  /** The spec's words, for the user ('Failed to like track'). */
  userMessage: string;
  failedAt: number;
}

export interface MetaEntry {
  key: string;
  value: unknown;
}

/** Where a download stands (docs/offline.md). */
export type DownloadState = 'queued' | 'downloading' | 'paused' | 'done' | 'failed';

/**
 * One listener's download of one track: the file itself is in the downloads cache (Cache Storage,
 * key `offlineAudioPath(userId, trackId)`); this row is its queue entry and record. Local only,
 * never synced.
 */
export interface Download {
  userId: string;
  trackId: string;
  state: DownloadState;
  /**
   * Bytes received of the file being downloaded (the whole file once done); while paused,
   * queued again or failed, the bytes kept for the resume (docs/offline.md, "Resuming").
   */
  receivedBytes: number;
  /** The file's size when the server said it (Content-Length), else null. */
  totalBytes: number | null;
  /** The rendition stored ('high', 'lossless', 'standard', 'original'), once known. */
  quality: string | null;
  /**
   * The server's ETag of the file being downloaded: a resumed download asks for the rest with
   * `If-Range`, so a file that changed meanwhile comes whole instead of being spliced.
   */
  etag?: string | null;
  /** Why it failed, in the words shown to the listener. */
  error: string | null;
  /** When it was asked for (ISO 8601): the queue's order. */
  queuedAt: string;
  completedAt: string | null;
  /** What asked for it: 'track', 'playlist:<id>', 'liked'. It stays while any of them does. */
  sources: string[];
}
