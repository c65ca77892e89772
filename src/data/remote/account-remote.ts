/**
 * Your data and leaving (docs/privacy-rights.md): the data export's status and request, and the
 * account deletion's schedule, request (the `delete-account` function checks the password) and
 * cancellation. Everything is decided by the server; this only asks and reads.
 */
import { getSupabase, sessionUserId } from './client';

export type ExportState = 'queued' | 'running' | 'ready' | 'failed' | 'expired';

export interface DataExport {
  id: string;
  state: ExportState;
  stage: string | null;
  progress: number;
  requestedOn: string;
  expiresAt: string | null;
  createdAt: string;
}

export interface ScheduledDeletion {
  /** When the deletion runs (the end of the grace period). */
  runAfter: string;
  running: boolean;
}

function fail(error: { message?: string } | null, fallback: string): never {
  throw new Error(error?.message || fallback);
}

/** The newest export of the signed-in user, or null. */
export async function fetchLatestExport(): Promise<DataExport | null> {
  const client = await getSupabase();
  const userId = await sessionUserId(client);
  if (!userId) return null;
  const { data, error } = await client
    .from('data_exports')
    .select('id, state, stage, progress, requested_on, expires_at, created_at')
    .eq('user_id', userId)
    .order('created_at', { ascending: false })
    .limit(1)
    .maybeSingle();
  if (error) fail(error, 'Failed to load your data export');
  if (!data) return null;
  return {
    id: data.id,
    state: data.state as ExportState,
    stage: data.stage,
    progress: data.progress,
    requestedOn: data.requested_on,
    expiresAt: data.expires_at,
    createdAt: data.created_at,
  };
}

export async function requestDataExport(): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('request_data_export');
  if (error) fail(error, 'Failed to request your data export');
}

export async function fetchScheduledDeletion(): Promise<ScheduledDeletion | null> {
  const client = await getSupabase();
  const userId = await sessionUserId(client);
  if (!userId) return null;
  const { data, error } = await client
    .from('account_deletions')
    .select('run_after, state')
    .eq('user_id', userId)
    .maybeSingle();
  if (error) fail(error, 'Failed to load your account status');
  return data ? { runAfter: data.run_after, running: data.state === 'running' } : null;
}

/** Schedules the deletion (password, or none with a two-factor session); resolves to its date. */
export async function scheduleAccountDeletion(password: string): Promise<string> {
  const client = await getSupabase();
  const { data, error } = await client.functions.invoke<{ scheduledFor: string }>(
    'delete-account',
    { body: password ? { password } : {} },
  );
  if (!error && data?.scheduledFor) return data.scheduledFor;
  const context = (error as { context?: unknown } | null)?.context;
  if (context instanceof Response) {
    const body = (await context.json().catch(() => null)) as { error?: unknown } | null;
    if (typeof body?.error === 'string' && body.error) throw new Error(body.error);
  }
  throw new Error('Failed to delete your account. Please try again.');
}

export async function cancelAccountDeletion(): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('cancel_account_deletion');
  if (error) fail(error, 'Failed to cancel the deletion');
}
