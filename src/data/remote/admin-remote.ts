/**
 * The admin dashboard's reads and actions (docs/admin.md). Postgres refuses every one of them to
 * non-admins; the screen only hides itself. Lists are paged and counted by the server.
 */
import { toTrack, type Track, type TrackRow } from '../db';
import { getSupabase } from './client';

export interface AdminStats {
  tracks: number;
  artists: number;
  pendingReview: number;
  plays: number;
  pendingWithdrawals: number;
  pendingWithdrawalsSum: number;
  openReports: number;
}

export interface AdminArtist {
  id: string;
  name: string;
  email: string | null;
  avatar: string | null;
  bio: string | null;
  subscriptionPlan: string;
  followers: number;
  createdAt: string;
  trackCount: number;
  plays: number;
}

export interface Page<T> {
  rows: T[];
  total: number;
}

export interface PendingWithdrawal {
  id: string;
  userId: string;
  artistName: string;
  amount: number;
  method: 'paypal' | 'bank';
  details: string;
  createdAt: string;
}

export type ReportReason = 'copyright' | 'offensive' | 'spam' | 'other';

export interface OpenReport {
  id: string;
  reason: ReportReason;
  note: string;
  createdAt: string;
  reporterName: string;
  track: { id: string; title: string; artist: string } | null;
}

export interface AuditEntry {
  id: number;
  actorName: string | null;
  action: string;
  targetTable: string;
  targetId: string;
  before: unknown;
  after: unknown;
  createdAt: string;
}

function fail(error: { message?: string } | null, fallback: string): never {
  throw new Error(error?.message || fallback);
}

export async function fetchAdminStats(): Promise<AdminStats> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('admin_stats');
  if (error) fail(error, 'Failed to load statistics');
  const s = data as Record<string, number | string>;
  return {
    tracks: Number(s.tracks),
    artists: Number(s.artists),
    pendingReview: Number(s.pending_review),
    plays: Number(s.plays),
    pendingWithdrawals: Number(s.pending_withdrawals),
    pendingWithdrawalsSum: Number(s.pending_withdrawals_sum),
    openReports: Number(s.open_reports),
  };
}

/** Spec 6: the moderation table, unverified first, then newest; `count` from the server. */
export async function fetchModerationTracks(from: number, size: number): Promise<Page<Track>> {
  const client = await getSupabase();
  const { data, error, count } = await client
    .from('tracks')
    .select('*', { count: 'exact' })
    .order('verified', { ascending: true })
    .order('created_at', { ascending: false })
    .range(from, from + size - 1);
  if (error) fail(error, 'Unable to refresh tracks');
  return { rows: (data as TrackRow[]).map(toTrack), total: count ?? data.length };
}

/** Spec 7: tracks update verified and updated_at. */
export async function setTrackVerified(trackId: string, verified: boolean): Promise<void> {
  const client = await getSupabase();
  const { error } = await client
    .from('tracks')
    .update({ verified, updated_at: new Date().toISOString() })
    .eq('id', trackId);
  if (error) fail(error, 'Failed to update track status');
}

/** Spec 7: tracks delete by id (its files go with the row, docs/admin.md). */
export async function deleteTrack(trackId: string): Promise<void> {
  const client = await getSupabase();
  const { error, count } = await client.from('tracks').delete({ count: 'exact' }).eq('id', trackId);
  if (error) fail(error, 'Failed to delete track');
  if (count === 0) throw new Error('Failed to delete track');
}

/** A row of `admin_artists` (returns table: the generated types say unknown). */
interface ArtistRow {
  id: string;
  name: string;
  email: string | null;
  avatar_url: string | null;
  bio: string | null;
  subscription_plan: string;
  followers: number;
  created_at: string;
  track_count: number | string;
  plays: number | string;
  total_count: number | string;
}

export async function fetchArtists(from: number, size: number): Promise<Page<AdminArtist>> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('admin_artists', {
    page_size: size,
    page_offset: from,
  });
  if (error) fail(error, 'Unable to load artists');
  const rows = data as ArtistRow[];
  return {
    rows: rows.map((a) => ({
      id: a.id,
      name: a.name,
      email: a.email,
      avatar: a.avatar_url,
      bio: a.bio,
      subscriptionPlan: a.subscription_plan,
      followers: a.followers,
      createdAt: a.created_at,
      trackCount: Number(a.track_count),
      plays: Number(a.plays),
    })),
    total: Number(rows[0]?.total_count ?? 0),
  };
}

export async function fetchPendingWithdrawals(): Promise<PendingWithdrawal[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('withdrawals')
    .select('id, user_id, amount, method, details, created_at, artist:profiles(name)')
    .eq('status', 'pending')
    .order('created_at', { ascending: true })
    .limit(100);
  if (error) fail(error, 'Failed to load withdrawals');
  return data.map((w) => ({
    id: w.id,
    userId: w.user_id ?? '', // pending ones always have an owner (deletion waits for them)
    artistName: (w.artist as { name: string } | null)?.name ?? '',
    amount: Number(w.amount),
    method: w.method as 'paypal' | 'bank',
    details: w.details,
    createdAt: w.created_at,
  }));
}

export async function processWithdrawal(
  withdrawalId: string,
  status: 'completed' | 'rejected',
): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('process_withdrawal', { withdrawal_id: withdrawalId, status });
  if (error) fail(error, 'Failed to process withdrawal');
}

export async function fetchOpenReports(): Promise<OpenReport[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('track_reports')
    .select(
      'id, reason, note, created_at, reporter:profiles(name), track:tracks(id, title, artist)',
    )
    .eq('status', 'open')
    .order('created_at', { ascending: true })
    .limit(100);
  if (error) fail(error, 'Failed to load reports');
  return data.map((r) => ({
    id: r.id,
    reason: r.reason as ReportReason,
    note: r.note,
    createdAt: r.created_at,
    reporterName: (r.reporter as { name: string } | null)?.name ?? '',
    track: r.track as OpenReport['track'],
  }));
}

export async function resolveReport(
  reportId: string,
  action: 'dismiss' | 'take_down',
  reason?: string,
): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('resolve_track_report', {
    report_id: reportId,
    action,
    ...(reason ? { reason } : {}),
  });
  if (error) fail(error, 'Failed to resolve the report');
}

export async function fetchAuditLog(from: number, size: number): Promise<Page<AuditEntry>> {
  const client = await getSupabase();
  const { data, error, count } = await client
    .from('admin_audit_log')
    .select('id, actor_id, action, target_table, target_id, before, after, created_at', {
      count: 'exact',
    })
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .range(from, from + size - 1);
  if (error) fail(error, 'Failed to load the audit log');
  const actorIds = [...new Set(data.map((e) => e.actor_id).filter((id): id is string => !!id))];
  const names = new Map<string, string>();
  if (actorIds.length > 0) {
    const { data: people } = await client.from('profiles').select('id, name').in('id', actorIds);
    for (const p of people ?? []) names.set(p.id, p.name);
  }
  return {
    rows: data.map((e) => ({
      id: e.id,
      actorName: e.actor_id ? (names.get(e.actor_id) ?? e.actor_id) : null,
      action: e.action,
      targetTable: e.target_table,
      targetId: e.target_id,
      before: e.before,
      after: e.after,
      createdAt: e.created_at,
    })),
    total: count ?? data.length,
  };
}

/** A listener reports a track (docs/admin.md); a second open report of theirs changes nothing. */
export async function reportTrack(
  trackId: string,
  reason: ReportReason,
  note: string,
): Promise<void> {
  const client = await getSupabase();
  const { error } = await client
    .from('track_reports')
    .insert({ track_id: trackId, reason, note: note.trim() });
  if (error && error.code !== '23505') fail(error, 'Failed to report track');
}

/** Spec 6: the pending spotlight, up to 6 tracks waiting for review (newest first). */
export async function fetchPendingTracks(limit = 6): Promise<Track[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('tracks')
    .select('*')
    .eq('verified', false)
    .is('taken_down_at', null)
    .order('created_at', { ascending: false })
    .limit(limit);
  if (error) fail(error, 'Unable to refresh tracks');
  return (data as TrackRow[]).map(toTrack);
}

/** Why the server did not count a listen (docs/plays.md). */
export type PlayRefusal =
  | 'no_audio_served'
  | 'not_enough_audio'
  | 'too_fast'
  | 'own_track'
  | 'new_account'
  | 'daily_track_limit'
  | 'daily_listener_limit'
  | 'not_downloaded'
  | 'outside_download_window'
  | 'too_frequent';

export interface RefusedListener {
  id: string;
  name: string;
  email: string | null;
  refused: number;
  counted: number;
  topReason: PlayRefusal | null;
  lastRefusedAt: string | null;
}

export interface RefusedTrack {
  id: string;
  title: string;
  artist: string;
  refused: number;
  counted: number;
  listeners: number;
  topReason: PlayRefusal | null;
  lastRefusedAt: string | null;
}

export interface RefusedPlays {
  listeners: RefusedListener[];
  tracks: RefusedTrack[];
}

/** Rows of admin_refused_listeners / admin_refused_tracks (`returns table`: typed here). */
interface RefusedRowBase {
  refused: number | string;
  counted: number | string;
  top_reason: string | null;
  last_refused_at: string | null;
}
interface RefusedListenerRow extends RefusedRowBase {
  listener_id: string;
  name: string;
  email: string | null;
}
interface RefusedTrackRow extends RefusedRowBase {
  track_id: string;
  title: string;
  artist: string;
  listeners: number | string;
}

/** The fraud view: who and what had the most refused listens in the last 30 days. */
export async function fetchRefusedPlays(limit = 10): Promise<RefusedPlays> {
  const client = await getSupabase();
  const [listeners, tracks] = await Promise.all([
    client.rpc('admin_refused_listeners', { p_limit: limit }),
    client.rpc('admin_refused_tracks', { p_limit: limit }),
  ]);
  if (listeners.error) fail(listeners.error, 'Failed to load refused plays');
  if (tracks.error) fail(tracks.error, 'Failed to load refused plays');
  return {
    listeners: (listeners.data as RefusedListenerRow[]).map((r) => ({
      id: r.listener_id,
      name: r.name,
      email: r.email,
      refused: Number(r.refused),
      counted: Number(r.counted),
      topReason: r.top_reason as PlayRefusal | null,
      lastRefusedAt: r.last_refused_at,
    })),
    tracks: (tracks.data as RefusedTrackRow[]).map((r) => ({
      id: r.track_id,
      title: r.title,
      artist: r.artist,
      refused: Number(r.refused),
      counted: Number(r.counted),
      listeners: Number(r.listeners),
      topReason: r.top_reason as PlayRefusal | null,
      lastRefusedAt: r.last_refused_at,
    })),
  };
}
