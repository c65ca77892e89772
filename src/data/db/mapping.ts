/** Server rows (generated Database types) ↔ the app's models. */
import type { Database, Json } from '../remote/database.types';
import type {
  AudioQuality,
  Follow,
  HistoryEntry,
  Like,
  LyricLine,
  Lyrics,
  Playlist,
  Profile,
  ProcessingStage,
  SocialLinks,
  Track,
  TrackStatus,
  Withdrawal,
} from './models';

type Row<T extends keyof Database['public']['Tables']> = Database['public']['Tables'][T]['Row'];

/**
 * A tracks row; the takedown columns (and the sanction that hid the track, docs/trust-and-
 * safety.md) may be left out of a select (they are null for most).
 */
type OptionalTrackColumns =
  'taken_down_at' | 'takedown_reason' | 'hidden_by_sanction' | 'hidden_by_notice';
export type TrackRow = Omit<Row<'tracks'>, OptionalTrackColumns> &
  Partial<Pick<Row<'tracks'>, OptionalTrackColumns>> &
  Partial<TrackProcessingColumns>;
/**
 * The processing columns of issue 14 (docs/upload.md; /work/wt/upload-contract.md §3), optional
 * so that rows from a server without them (or before the types are regenerated) still map.
 */
export interface TrackProcessingColumns {
  status: string;
  processing_stage: string | null;
  processing_progress: number | null;
  status_reason: string | null;
  loudness_lufs: number | null;
  true_peak_db: number | null;
  qualities: string[] | null;
}
export type LikeRow = Row<'liked_tracks'>;
export type PlaylistRow = Row<'playlists'>;
export type LyricsRow = Row<'track_lyrics'>;
export type FollowRow = Row<'followers'>;
export type HistoryRow = Row<'listening_history'>;
export type WithdrawalRow = Row<'withdrawals'>;
/** profiles minus the columns nobody may select (never select('*') on profiles). */
export type ProfileRow = Omit<Row<'profiles'>, 'email' | 'balance' | 'stripe_customer_id'>;

/** The profile columns a client may read (docs/database.md). */
export const PROFILE_COLUMNS =
  'id,name,avatar_url,bio,social_links,featured_track,featured_playlist,subscription_plan,monthly_uploads,monthly_uploads_month,followers,created_at,updated_at';

/** Postgres JSON timestamps ('2026-11-22T07:00:00.123456+00:00') as ISO strings (ms). */
export function isoTime(value: string): string {
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : value;
}

export const toTrack = (r: TrackRow): Track => ({
  id: r.id,
  title: r.title,
  artist: r.artist,
  album: r.album,
  genre: r.genre,
  duration: r.duration,
  audioUrl: r.audio_url,
  coverImage: r.cover_image,
  uploadedBy: r.uploaded_by,
  plays: Number(r.plays),
  verified: r.verified,
  createdAt: isoTime(r.created_at),
  updatedAt: isoTime(r.updated_at),
  ...(r.taken_down_at
    ? { takenDownAt: isoTime(r.taken_down_at), takedownReason: r.takedown_reason ?? '' }
    : {}),
  ...toProcessing(r),
});

const STATUSES: readonly TrackStatus[] = ['processing', 'ready', 'failed'];
const STAGES: readonly ProcessingStage[] = [
  'queued',
  'checking',
  'decoding',
  'waveform',
  'loudness',
  'encoding',
];
const QUALITIES: readonly AudioQuality[] = ['standard', 'high', 'lossless'];
const oneOf = <T extends string>(list: readonly T[], value: unknown): T | null =>
  list.find((v) => v === value) ?? null;
const num = (value: unknown): number | null =>
  value === null || value === undefined || !Number.isFinite(Number(value)) ? null : Number(value);

/** A row without the columns (an old server) is a ready track with no renditions. */
export function toProcessing(
  r: Partial<TrackProcessingColumns>,
): Pick<
  Track,
  | 'status'
  | 'processingStage'
  | 'processingProgress'
  | 'statusReason'
  | 'loudnessLufs'
  | 'truePeakDb'
  | 'qualities'
> {
  return {
    status: oneOf(STATUSES, r.status ?? 'ready') ?? 'processing',
    processingStage: oneOf(STAGES, r.processing_stage),
    processingProgress: num(r.processing_progress),
    statusReason: r.status_reason ?? null,
    loudnessLufs: num(r.loudness_lufs),
    truePeakDb: num(r.true_peak_db),
    qualities: QUALITIES.filter((q) => r.qualities?.includes(q)),
  };
}

export const toLike = (r: LikeRow): Like => ({
  userId: r.user_id,
  trackId: r.track_id,
  id: r.id,
  createdAt: isoTime(r.created_at),
});

export const toPlaylist = (r: PlaylistRow): Playlist => ({
  id: r.id,
  name: r.name,
  description: r.description,
  coverImage: r.cover_image,
  createdBy: r.created_by,
  trackIds: [...r.track_ids],
  createdAt: isoTime(r.created_at),
  updatedAt: isoTime(r.updated_at),
});

export function toLyricLines(value: Json): LyricLine[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item, index) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return [];
    const text = typeof item.text === 'string' ? item.text : '';
    const timestamp = Number(item.timestamp);
    const line: LyricLine = {
      id: typeof item.id === 'string' ? item.id : `line-${index}`,
      text,
      timestamp: Number.isFinite(timestamp) ? timestamp : 0,
    };
    if (typeof item.annotation === 'string') line.annotation = item.annotation;
    return [line];
  });
}

export const toLyrics = (r: LyricsRow): Lyrics => ({
  trackId: r.track_id,
  lines: toLyricLines(r.lyrics),
  language: r.language,
  isSynced: r.is_synced,
  lastEditedBy: r.last_edited_by,
  updatedAt: isoTime(r.updated_at),
});

export function toSocialLinks(value: Json): SocialLinks {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const links: SocialLinks = {};
  for (const key of ['twitter', 'instagram', 'spotify'] as const) {
    const v = value[key];
    if (typeof v === 'string' || v === null) links[key] = v;
  }
  return links;
}

export const toProfile = (r: ProfileRow): Profile => ({
  id: r.id,
  name: r.name,
  avatar: r.avatar_url,
  bio: r.bio,
  socialLinks: toSocialLinks(r.social_links),
  featuredTrack: r.featured_track,
  featuredPlaylist: r.featured_playlist,
  subscriptionPlan: r.subscription_plan,
  monthlyUploads: r.monthly_uploads,
  monthlyUploadsMonth: r.monthly_uploads_month,
  followers: r.followers,
  createdAt: isoTime(r.created_at),
  updatedAt: isoTime(r.updated_at),
});

export const toFollow = (r: FollowRow): Follow => ({
  followerId: r.follower_id,
  followingId: r.following_id,
  createdAt: isoTime(r.created_at),
});

export const toHistory = (r: HistoryRow): HistoryEntry => ({
  id: r.id,
  userId: r.user_id,
  trackId: r.track_id,
  listenedAt: isoTime(r.listened_at),
});

export const toWithdrawal = (r: WithdrawalRow): Withdrawal => ({
  id: r.id,
  userId: r.user_id ?? '', // null only once anonymised (a deleted account): never the reader's
  amount: Number(r.amount),
  method: r.method,
  details: r.details,
  status: r.status,
  createdAt: isoTime(r.created_at),
  updatedAt: isoTime(r.updated_at),
});

/** Model → server columns for the profile fields a user may change. */
export const PROFILE_FIELD_COLUMNS = {
  name: 'name',
  avatar: 'avatar_url',
  bio: 'bio',
  socialLinks: 'social_links',
  featuredTrack: 'featured_track',
  featuredPlaylist: 'featured_playlist',
} as const satisfies Partial<Record<keyof Profile, string>>;

export type EditableProfileField = keyof typeof PROFILE_FIELD_COLUMNS;
