/**
 * The lyrics studio's editable rows (pure): text plus the timestamp as typed. The editor always
 * keeps at least one row; a new row starts 4 s after the one before it (spec 5).
 */
import type { LyricLine } from '@/data';
import type { LrcLine } from '@/lib/lrc';
import { formatTimestamp, parseTimestamp, roundTimestamp } from '@/lib/lyrics-time';

export interface StudioRow {
  id: string;
  text: string;
  /** As typed: 'mm:ss' or seconds; read with parseTimestamp. */
  time: string;
  annotation?: string;
}

export const NEW_LINE_GAP_SECONDS = 4;

const newId = () => `line-${crypto.randomUUID()}`;

export function emptyRow(timestamp = 0): StudioRow {
  return { id: newId(), text: '', time: formatTimestamp(timestamp) };
}

export function rowsFromLines(lines: readonly LyricLine[] | null | undefined): StudioRow[] {
  if (!lines?.length) return [emptyRow()];
  return lines.map((line) => ({
    id: line.id || newId(),
    text: line.text,
    time: formatTimestamp(line.timestamp),
    ...(line.annotation ? { annotation: line.annotation } : {}),
  }));
}

export function rowsFromLrc(lines: readonly LrcLine[]): StudioRow[] {
  if (!lines.length) return [emptyRow()];
  return lines.map((line) => ({
    id: newId(),
    text: line.text,
    time: formatTimestamp(line.timestamp),
  }));
}

/** Adds a row after `afterIndex` (default: the end), 4 s after that row's time. */
export function addRow(rows: readonly StudioRow[], afterIndex = rows.length - 1): StudioRow[] {
  const previous = rows[afterIndex];
  const start = previous ? parseTimestamp(previous.time) + NEW_LINE_GAP_SECONDS : 0;
  const next = [...rows];
  next.splice(afterIndex + 1, 0, emptyRow(roundTimestamp(start)));
  return next;
}

/** Removes a row; the last remaining row is cleared instead (at least one line, always). */
export function removeRow(rows: readonly StudioRow[], index: number): StudioRow[] {
  if (rows.length <= 1) return [emptyRow()];
  return rows.filter((_, i) => i !== index);
}

export function updateRow(
  rows: readonly StudioRow[],
  index: number,
  change: Partial<Omit<StudioRow, 'id'>>,
): StudioRow[] {
  return rows.map((row, i) => (i === index ? { ...row, ...change } : row));
}

/** The lines to save: timestamps read ('mm:ss' or seconds; invalid, negative → 0). */
export function rowsToLines(rows: readonly StudioRow[]): Partial<LyricLine>[] {
  return rows.map((row) => ({
    id: row.id,
    text: row.text,
    timestamp: roundTimestamp(parseTimestamp(row.time)),
    ...(row.annotation ? { annotation: row.annotation } : {}),
  }));
}
