/**
 * The upload page's rules (spec 5, DECISIONS.md): which files are accepted, the form's
 * messages, when Submit is enabled, and the monthly limit panel. Pure, so every rule is tested;
 * the server checks all of them again (docs/upload.md).
 */
import { FILE_LIMITS } from '@/lib/constants';
import { getPlan, type PlanDefinition, type PlanId } from '@/lib/plans';

export const NOT_AUDIO = 'Please select an audio file.';
export const AUDIO_TOO_LARGE = 'Audio file must be less than 50MB.';
export const AUDIO_UNREADABLE = 'Failed to load audio file. Please try another file.';
export const NOT_AN_IMAGE = 'Please select an image file.';
export const COVER_TOO_LARGE = 'Cover image must be less than 5MB.';
export const TITLE_REQUIRED = 'Please enter a title.';
export const ARTIST_REQUIRED = 'Please enter an artist name.';
export const LIMIT_REACHED =
  'You have reached your monthly upload limit. Upgrade your plan to upload more tracks.';
export const UPLOAD_FAILED = 'Failed to upload track. Please try again.';

const MB = 1024 * 1024;

export type AudioMime = (typeof FILE_LIMITS.audioMimeTypes)[number];

/** The names browsers and systems give the four accepted formats. */
const AUDIO_ALIASES: Record<string, AudioMime> = {
  'audio/mpeg': 'audio/mpeg',
  'audio/mp3': 'audio/mpeg',
  'audio/mpeg3': 'audio/mpeg',
  'audio/x-mpeg': 'audio/mpeg',
  'audio/x-mp3': 'audio/mpeg',
  'audio/wav': 'audio/wav',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/ogg': 'audio/ogg',
  'audio/vorbis': 'audio/ogg',
  // Ogg Opus (RFC 7845 names it audio/ogg; some systems say audio/opus for .opus files).
  'audio/opus': 'audio/ogg',
  'audio/flac': 'audio/flac',
  'audio/x-flac': 'audio/flac',
};

const EXTENSIONS: Record<string, AudioMime> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  flac: 'audio/flac',
};

const extensionOf = (name: string) => /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';

/**
 * The accepted type of a picked file, by its declared type, or by its extension when the system
 * declared none (some phones and desktops send ''). Null: not an accepted audio file.
 */
export function audioMimeOf(file: { name: string; type: string }): AudioMime | null {
  const declared = file.type.toLowerCase().split(';', 1)[0]?.trim() ?? '';
  if (declared) return AUDIO_ALIASES[declared] ?? null;
  return EXTENSIONS[extensionOf(file.name)] ?? null;
}

/** Spec 5: an audio file (mpeg, wav, ogg or flac) under 50 MB. */
export function audioFileError(file: { name: string; type: string; size: number }): string | null {
  if (!audioMimeOf(file)) return NOT_AUDIO;
  if (file.size >= FILE_LIMITS.audioMaxMb * MB) return AUDIO_TOO_LARGE;
  return null;
}

/** Spec 5: a JPEG, PNG or WebP image under 5 MB. */
export function coverFileError(file: { type: string; size: number }): string | null {
  if (!(FILE_LIMITS.imageMimeTypes as readonly string[]).includes(file.type)) return NOT_AN_IMAGE;
  if (file.size >= FILE_LIMITS.coverMaxMb * MB) return COVER_TOO_LARGE;
  return null;
}

/** The title the form starts with: the file name without its extension. */
export function titleFromFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).trim();
}

export interface TrackDetails {
  title: string;
  artist: string;
  album: string;
  genre: string;
}

export type DetailErrors = Partial<Record<'title' | 'artist', string>>;

export function checkDetails(details: TrackDetails): DetailErrors {
  const errors: DetailErrors = {};
  if (!details.title.trim()) errors.title = TITLE_REQUIRED;
  if (!details.artist.trim()) errors.artist = ARTIST_REQUIRED;
  return errors;
}

/** Trimmed values; blank album and genre are null (spec 3: album shown as 'Single'). */
export function cleanDetails(details: TrackDetails) {
  const optional = (v: string) => v.trim() || null;
  return {
    title: details.title.trim(),
    artist: details.artist.trim(),
    album: optional(details.album),
    genre: optional(details.genre),
  };
}

export interface UploadLimits {
  plan: PlanDefinition;
  /** Null: unlimited (premium). */
  limit: number | null;
  used: number;
  remaining: number | null;
  atLimit: boolean;
}

/** Spec 2's upload limits panel, from the plan's monthly limit and this month's uploads. */
export function uploadLimits(planId: string | null | undefined, used: number): UploadLimits {
  const plan = getPlan(isPlanId(planId) ? planId : 'free');
  const limit = plan.monthlyUploadLimit;
  const remaining = limit === null ? null : Math.max(0, limit - used);
  return { plan, limit, used, remaining, atLimit: remaining === 0 };
}

function isPlanId(value: unknown): value is PlanId {
  return value === 'free' || value === 'basic' || value === 'premium';
}

/** Spec 5: disabled without a file, a title or an artist, while uploading, or at the limit. */
export function canSubmit(state: {
  hasAudio: boolean;
  details: TrackDetails;
  busy: boolean;
  atLimit: boolean;
}): boolean {
  return (
    state.hasAudio &&
    Boolean(state.details.title.trim()) &&
    Boolean(state.details.artist.trim()) &&
    !state.busy &&
    !state.atLimit
  );
}

/** '3.2 MB' */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MB) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / MB).toFixed(1)} MB`;
}
