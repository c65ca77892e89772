/**
 * Keeps the player across reloads: localStorage key 'music-player-storage' (spec section 3) holds
 * currentTrack, queue, volume, currentTime, repeat and shuffle (and the loudness normalisation
 * setting, `normalise`, and `autoplay`), in the `{ state, version }`
 * envelope of the original app's store so existing saves keep working. Restored paused at the
 * saved position. Position updates arrive several times a second, so they are written at most
 * every 2 s, and always when the page is hidden or left.
 */
import { subscribe } from 'valtio';
import { restore } from './actions';
import { playerState, type PlayerState } from './store';
import { REPEAT_MODES, type AudioQuality, type PlayerTrack, type RepeatMode } from './types';

export const PLAYER_STORAGE_KEY = 'music-player-storage';
export const POSITION_WRITE_INTERVAL_MS = 2000;
const VERSION = 1;

export type PersistedPlayer = Pick<
  PlayerState,
  | 'currentTrack'
  | 'queue'
  | 'volume'
  | 'currentTime'
  | 'repeat'
  | 'shuffle'
  | 'normalise'
  | 'autoplay'
>;

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const QUALITIES: readonly AudioQuality[] = ['standard', 'high', 'lossless'];

/** A track read from storage, or null when its shape is not a track's. */
export function parseTrack(value: unknown): PlayerTrack | null {
  if (typeof value !== 'object' || value === null) return null;
  const t = value as Record<string, unknown>;
  if (!isString(t.id) || !isString(t.title) || !isString(t.audioUrl)) return null;
  return {
    id: t.id,
    title: t.title,
    artist: isString(t.artist) ? t.artist : '',
    album: isString(t.album) ? t.album : null,
    duration: isNumber(t.duration) ? t.duration : 0,
    audioUrl: t.audioUrl,
    coverImage: isString(t.coverImage) ? t.coverImage : null,
    uploadedBy: isString(t.uploadedBy) ? t.uploadedBy : '',
    // Saves from before the pipeline have no qualities: unknown, the server picks.
    ...(Array.isArray(t.qualities)
      ? { qualities: QUALITIES.filter((q) => (t.qualities as unknown[]).includes(q)) }
      : {}),
    loudnessLufs: isNumber(t.loudnessLufs) ? t.loudnessLufs : null,
    truePeakDb: isNumber(t.truePeakDb) ? t.truePeakDb : null,
  };
}

/** Reads what was saved; anything malformed is dropped field by field, never thrown. */
export function readPersisted(storage: Pick<Storage, 'getItem'>): Partial<PersistedPlayer> {
  let raw: unknown;
  try {
    raw = JSON.parse(storage.getItem(PLAYER_STORAGE_KEY) ?? 'null');
  } catch {
    return {};
  }
  if (typeof raw !== 'object' || raw === null) return {};
  const envelope = raw as { state?: unknown };
  const state = (
    typeof envelope.state === 'object' && envelope.state !== null ? envelope.state : raw
  ) as Record<string, unknown>;
  const saved: Partial<PersistedPlayer> = {};
  if ('currentTrack' in state) saved.currentTrack = parseTrack(state.currentTrack);
  if (Array.isArray(state.queue)) {
    saved.queue = state.queue.map(parseTrack).filter((t): t is PlayerTrack => t !== null);
  }
  if (isNumber(state.volume)) saved.volume = state.volume;
  if (isNumber(state.currentTime)) saved.currentTime = Math.max(0, state.currentTime);
  if (REPEAT_MODES.includes(state.repeat as RepeatMode)) saved.repeat = state.repeat as RepeatMode;
  if (typeof state.shuffle === 'boolean') saved.shuffle = state.shuffle;
  if (typeof state.normalise === 'boolean') saved.normalise = state.normalise;
  if (typeof state.autoplay === 'boolean') saved.autoplay = state.autoplay;
  return saved;
}

export function writePersisted(storage: Pick<Storage, 'setItem'>, state: PlayerState): void {
  const saved: PersistedPlayer = {
    currentTrack: state.currentTrack,
    queue: state.queue,
    // A muted player is saved at its audible volume, so a reload does not come back silent.
    volume: state.muted ? (state.volumeBeforeMute ?? state.volume) : state.volume,
    currentTime: state.currentTime,
    repeat: state.repeat,
    shuffle: state.shuffle,
    normalise: state.normalise,
    autoplay: state.autoplay,
  };
  try {
    storage.setItem(PLAYER_STORAGE_KEY, JSON.stringify({ state: saved, version: VERSION }));
  } catch {
    // Storage full or blocked (private mode): the player keeps working without persistence.
  }
}

export interface PersistenceOptions {
  storage?: Storage;
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  document?: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'>;
  intervalMs?: number;
}

/** Everything saved except the position: a change here is written at once. */
const structure = (s: PlayerState) =>
  [
    s.currentTrack,
    s.queue,
    s.volume,
    s.muted,
    s.volumeBeforeMute,
    s.repeat,
    s.shuffle,
    s.normalise,
    s.autoplay,
  ] as const;

/**
 * Restores the saved state into the store, then saves every change. Returns a function that
 * stops saving (after one last write).
 */
export function startPersistence(options: PersistenceOptions = {}): () => void {
  const storage = options.storage ?? window.localStorage;
  const target = options.target ?? window;
  const doc = options.document ?? document;
  const intervalMs = options.intervalMs ?? POSITION_WRITE_INTERVAL_MS;

  restore(readPersisted(storage));

  let timer: ReturnType<typeof setTimeout> | null = null;
  let written = structure(playerState);
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    written = structure(playerState);
    writePersisted(storage, playerState);
  };
  const unsubscribe = subscribe(playerState, () => {
    const now = structure(playerState);
    if (now.some((value, i) => value !== written[i])) flush();
    else if (timer === null) timer = setTimeout(flush, intervalMs);
  });
  const onHidden = () => {
    if (doc.visibilityState === 'hidden') flush();
  };
  target.addEventListener('pagehide', flush);
  doc.addEventListener('visibilitychange', onHidden);

  return () => {
    unsubscribe();
    target.removeEventListener('pagehide', flush);
    doc.removeEventListener('visibilitychange', onHidden);
    flush();
  };
}
