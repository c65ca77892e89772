/**
 * Lyric timestamps (spec 5): entry accepts 'mm:ss' or plain seconds; anything invalid,
 * non-finite or negative reads as 0. Shown as 'mm:ss' (with hundredths when the time has them,
 * 'mm:ss.xx', as LRC writes it).
 */

const PLAIN_SECONDS = /^\d+(?:\.\d+)?$/;
const CLOCK = /^(?:(\d+):)?(\d+):(\d{1,2}(?:\.\d+)?)$/;

/** 'mm:ss', 'm:ss.xx', 'h:mm:ss' or plain seconds → seconds; invalid, negative → 0. */
export function parseTimestamp(input: string | number | null | undefined): number {
  if (typeof input === 'number') return Number.isFinite(input) && input > 0 ? input : 0;
  const text = (input ?? '').trim();
  if (PLAIN_SECONDS.test(text)) return finite(Number(text));
  const clock = CLOCK.exec(text);
  if (!clock) return 0;
  const hours = Number(clock[1] ?? 0);
  const minutes = Number(clock[2]);
  const seconds = Number(clock[3]);
  if (seconds >= 60 || (clock[1] !== undefined && minutes >= 60)) return 0;
  return finite(hours * 3600 + minutes * 60 + seconds);
}

function finite(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

/** Rounded to hundredths (LRC's precision), so float noise never shows. */
export function roundTimestamp(seconds: number): number {
  return Math.round(finite(seconds) * 100) / 100;
}

/** Seconds → 'mm:ss' ('mm:ss.xx' when there are hundredths). */
export function formatTimestamp(seconds: number): string {
  const centis = Math.round(finite(seconds) * 100);
  const minutes = Math.floor(centis / 6000);
  const secs = Math.floor((centis % 6000) / 100);
  const hundredths = centis % 100;
  const base = `${String(minutes).padStart(2, '0')}:${String(secs).padStart(2, '0')}`;
  return hundredths ? `${base}.${String(hundredths).padStart(2, '0')}` : base;
}

/**
 * The current line: the last one whose time window [its timestamp, the next one's) holds the
 * playback time; -1 before the first line. Lines must be sorted by timestamp.
 */
export function currentLineIndex(lines: readonly { timestamp: number }[], time: number): number {
  let index = -1;
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i]?.timestamp ?? 0) <= time) index = i;
    else break;
  }
  return index;
}

/** Lyrics are synced when some line has a time (all zero means plain text). */
export const hasTimings = (lines: readonly { timestamp: number }[]): boolean =>
  lines.some((line) => line.timestamp > 0);
