/**
 * LRC, the lyric file format players and lyric sites use: `[mm:ss.xx]text` per line, several
 * time tags may share one text, `[ar:...]`-style metadata and `[offset:±ms]`. Plain text without
 * tags imports as untimed lines.
 */
import { formatTimestamp, roundTimestamp } from './lyrics-time';

export interface LrcLine {
  text: string;
  timestamp: number;
}

export interface LrcMetadata {
  title?: string;
  artist?: string;
  album?: string;
  /** Track length in seconds. */
  length?: number;
}

const TIME_TAG = /\[(\d{1,3}):(\d{1,2}(?:[.:]\d{1,3})?)\]/g;
const META_TAG = /^\[([a-z#]+):(.*)\]$/i;

/** Time tags and text of one line, or null when it has no time tag. */
function timedLine(raw: string): { times: number[]; text: string } | null {
  const times: number[] = [];
  let rest = raw;
  for (;;) {
    TIME_TAG.lastIndex = 0;
    const match = TIME_TAG.exec(rest);
    if (!match || match.index !== 0) break;
    const seconds = Number((match[2] ?? '0').replace(':', '.'));
    times.push(Number(match[1]) * 60 + seconds);
    rest = rest.slice(match[0].length);
  }
  if (!times.length) return null;
  return { times, text: rest.trim() };
}

/** LRC (or plain text) → lines sorted by time; blank lines are dropped. */
export function parseLrc(source: string): LrcLine[] {
  let offset = 0;
  const timed: LrcLine[] = [];
  const plain: string[] = [];
  for (const raw of source.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const parsed = timedLine(line);
    if (parsed) {
      if (!parsed.text) continue;
      for (const t of parsed.times) timed.push({ text: parsed.text, timestamp: t });
      continue;
    }
    const meta = META_TAG.exec(line);
    if (meta) {
      if (meta[1]?.toLowerCase() === 'offset') offset = Number(meta[2]) / 1000 || 0;
      continue;
    }
    plain.push(line);
  }
  if (!timed.length) return plain.map((text) => ({ text, timestamp: 0 }));
  // A positive offset shows lyrics sooner.
  return timed
    .map((line) => ({ ...line, timestamp: roundTimestamp(Math.max(0, line.timestamp - offset)) }))
    .sort((a, b) => a.timestamp - b.timestamp);
}

/** Lines → LRC text with optional metadata tags. */
export function toLrc(lines: readonly LrcLine[], meta: LrcMetadata = {}): string {
  const header: string[] = [];
  if (meta.title) header.push(`[ti:${meta.title}]`);
  if (meta.artist) header.push(`[ar:${meta.artist}]`);
  if (meta.album) header.push(`[al:${meta.album}]`);
  if (meta.length) header.push(`[length:${formatTimestamp(Math.round(meta.length))}]`);
  const body = lines.map((line) => {
    const stamp = formatTimestamp(line.timestamp);
    return `[${stamp.includes('.') ? stamp : `${stamp}.00`}]${line.text}`;
  });
  return [...header, ...body].join('\n') + '\n';
}

/** A file name for the export: 'Artist - Title.lrc' without characters file systems refuse. */
export function lrcFileName(artist: string, title: string): string {
  const name = `${artist} - ${title}`.replace(/[\\/:*?"<>|]+/g, '_').trim();
  return `${name || 'lyrics'}.lrc`;
}
