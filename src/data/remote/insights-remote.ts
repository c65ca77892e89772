/**
 * The artist's insights (docs/insights.md): one call, `artist_insights`, answers the catalogue
 * or one track over a period with aggregates only (buckets of fewer than 5 listeners merged by
 * the server). And the source of a listen, told to the server with it (`record_play_source`).
 */
import { getSupabase } from './client';

export type InsightsPeriod = '7d' | '30d' | '90d' | '12m';
export type PlaySource =
  'search' | 'explore' | 'playlist' | 'artist_page' | 'shared_link' | 'offline' | 'other';

export interface InsightsTotals {
  plays: number;
  /** Distinct listeners in the window; null from 1 to 4 (fewer than 5 are never counted out). */
  listeners: number | null;
  /** New followers (the catalogue only; null for one track). */
  followers: number | null;
  likes: number;
  playlist_adds: number;
  earnings: number;
  listens: number;
  /** Percent of listens that ended within the first 30 s; null under 5 listens. */
  skip_rate: number | null;
  avg_listen_seconds: number | null;
}

export interface InsightsBucket {
  /** 'YYYY-MM-DD': the (last) day, week or month of the bucket. */
  bucket: string;
  /** The first bucket merged into this one (the same as bucket when alone). */
  since: string;
  merged: number;
  /**
   * Still fewer than 5 listeners (only when the whole window has fewer): the server sends no
   * figure for it, only its dates.
   */
  hidden?: boolean;
  plays: number | null;
  /** Distinct listeners of the span (at least this many when listeners_max is there). */
  listeners: number | null;
  /**
   * A merged span whose distinct listeners the server can only bound (its sketches cannot tell
   * whether a listener of a small bucket also listened in its big one): at most this many.
   */
  listeners_max?: number;
  earnings: number | null;
  likes: number | null;
  playlist_adds: number | null;
}

export interface CurvePoint {
  /** Second of the track (one track) or percent of each track's length (the catalogue). */
  x: number;
  /** Percent of listens still playing at x (100 at 0, never rising). */
  share: number;
  /** Percent of listens served x after a seek. */
  seek: number;
}

export interface Insights {
  period: InsightsPeriod;
  from: string;
  to: string;
  track: string | null;
  duration: number | null;
  unit: 'second' | 'percent';
  min_listeners: number;
  totals: InsightsTotals;
  series: InsightsBucket[];
  curve: CurvePoint[] | null;
  sources: { source: PlaySource; plays: number }[];
  playlists: { id: string; name: string; plays: number | null }[];
  tracks: { id: string; title: string; plays: number; likes: number; earnings: number }[] | null;
}

export async function fetchInsights(
  period: InsightsPeriod,
  trackId: string | null,
): Promise<Insights> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('artist_insights', {
    p_period: period,
    p_track: trackId ?? undefined,
  });
  if (error) throw new Error(error.message || 'Failed to load your insights');
  return data as unknown as Insights;
}

/** Tells the server where an online listen came from (kept only if it judges the listen). */
export async function recordPlaySource(
  trackId: string,
  sessionId: string,
  source: Exclude<PlaySource, 'offline'>,
  playlistId: string | null,
): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('record_play_source', {
    track_id: trackId,
    session_id: sessionId,
    source,
    playlist_id: playlistId ?? undefined,
  });
  if (error) throw new Error(error.message);
}
