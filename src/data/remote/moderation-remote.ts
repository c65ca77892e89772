/**
 * The moderation queue, the ladder and appeals (docs/trust-and-safety.md). Postgres decides who
 * may do what (admin_moderation_queue, admin_sanction_user, admin_sanction_from_report,
 * admin_answer_appeal check is_admin(); file_appeal checks whose decision and the 30 days); the
 * screens only show or hide.
 */
import { getSupabase } from './client';

export type QueueKind = 'report' | 'notice' | 'appeal';
export type QueueStatus = 'open' | 'closed' | 'all';
export type Restriction = 'suspension' | 'ban' | null;

export interface QueueItem {
  kind: QueueKind;
  id: string;
  status: 'open' | 'closed';
  /** The row's own status: a report's open/dismissed/taken_down/actioned, an appeal's. */
  detailStatus: string;
  createdAt: string;
  dueAt: string;
  overdue: boolean;
  title: string;
  reason: string;
  note: string;
  trackId: string | null;
  subject: {
    id: string | null;
    name: string | null;
    restriction: Restriction;
    suspendedUntil: string | null;
    warnings: number;
    /** Active copyright strikes (the copyright flow's `copyright_strikes`). */
    strikes: number;
  };
  sanctionId: string | null;
  sanctionKind: string | null;
}

export interface QueueFilters {
  kind: QueueKind | null;
  status: QueueStatus;
  overdue: boolean;
}

/** One row of admin_moderation_queue (a table-returning function: typed here, not generated). */
interface QueueRowDb {
  kind: string;
  id: string;
  status: string;
  detail_status: string;
  created_at: string;
  due_at: string;
  overdue: boolean;
  title: string;
  reason: string | null;
  note: string | null;
  track_id: string | null;
  subject_user: string | null;
  subject_name: string | null;
  subject_restriction: string | null;
  subject_suspended_until: string | null;
  subject_warnings: number | null;
  subject_strikes: number | null;
  sanction_id: string | null;
  sanction_kind: string | null;
}

function fail(error: { message?: string } | null, fallback: string): never {
  throw new Error(error?.message || fallback);
}

export async function fetchModerationQueue(filters: QueueFilters): Promise<QueueItem[]> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('admin_moderation_queue', {
    p_kind: filters.kind ?? undefined,
    p_status: filters.status,
    p_overdue: filters.overdue,
    p_limit: 200,
  });
  if (error) fail(error, 'Failed to load the moderation queue');
  return ((data ?? []) as QueueRowDb[]).map((r) => ({
    kind: r.kind as QueueKind,
    id: r.id,
    status: r.status as 'open' | 'closed',
    detailStatus: r.detail_status,
    createdAt: r.created_at,
    dueAt: r.due_at,
    overdue: r.overdue,
    title: r.title,
    reason: r.reason ?? '',
    note: r.note ?? '',
    trackId: r.track_id,
    subject: {
      id: r.subject_user,
      name: r.subject_name,
      restriction: (r.subject_restriction as Restriction) ?? null,
      suspendedUntil: r.subject_suspended_until,
      warnings: r.subject_warnings ?? 0,
      strikes: r.subject_strikes ?? 0,
    },
    sanctionId: r.sanction_id,
    sanctionKind: r.sanction_kind,
  }));
}

export type SanctionKind = 'warning' | 'suspension' | 'ban';

export interface SanctionInput {
  kind: SanctionKind;
  reason: string;
  /** A suspension's length, 7 to 30 days. */
  days: number | null;
  /** A warning from a report may remove the reported track with it. */
  removeTrack: boolean;
}

/** The ladder from a report: the sanction on the track's uploader, the report closed with it. */
export async function sanctionFromReport(reportId: string, input: SanctionInput): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('admin_sanction_from_report', {
    p_report: reportId,
    p_kind: input.kind,
    p_reason: input.reason,
    p_days: input.kind === 'suspension' ? (input.days ?? undefined) : undefined,
    p_remove_track: input.kind === 'warning' && input.removeTrack,
  });
  if (error) fail(error, 'Failed to sanction the account');
}

export async function answerAppeal(
  appealId: string,
  decision: 'uphold' | 'overturn',
  reason: string,
): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('admin_answer_appeal', {
    p_appeal: appealId,
    p_decision: decision,
    p_reason: reason,
  });
  if (error) fail(error, 'Failed to answer the appeal');
}

/** Until when an account is suspended (null when it is not): public. */
export async function fetchSuspendedUntil(userId: string): Promise<string | null> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('suspended_until', { p_user: userId });
  if (error) fail(error, 'Failed to load the account status');
  return (data as string | null) ?? null;
}

export interface MyDecision {
  /** 'sanction:<id>' or 'removal:<track id>'. */
  key: string;
  kind: SanctionKind | 'removal';
  sanctionId: string | null;
  trackId: string | null;
  title: string;
  reason: string;
  decidedAt: string;
  endsAt: string | null;
  lifted: boolean;
  appeal: { status: 'open' | 'upheld' | 'overturned'; dueAt: string; answer: string | null } | null;
}

interface SanctionRow {
  id: string;
  kind: string;
  reason: string;
  created_at: string;
  ends_at: string | null;
  lifted_at: string | null;
}

function sanctionDecision(s: SanctionRow, appeal: MyDecision['appeal']): MyDecision {
  return {
    key: `sanction:${s.id}`,
    kind: s.kind as SanctionKind,
    sanctionId: s.id,
    trackId: null,
    title: s.kind === 'warning' ? 'Warning' : s.kind === 'suspension' ? 'Suspension' : 'Ban',
    reason: s.reason,
    decidedAt: s.created_at,
    endsAt: s.ends_at,
    lifted: s.lifted_at !== null,
    appeal,
  };
}

interface RemovedRow {
  id: string;
  title: string;
  takedown_reason: string | null;
  taken_down_at: string | null;
}

interface AppealRow {
  sanction_id: string | null;
  track_id: string | null;
  removed_at: string | null;
  status: string;
  due_at: string;
  answer_reason: string | null;
}

const sameInstant = (a: string | null, b: string | null) =>
  a !== null && b !== null && Date.parse(a) === Date.parse(b);

/**
 * One entry per decision, newest first. A track removed by a warning (sanction_apply takes it
 * down in the warning's transaction: its taken_down_at is the warning's created_at, its reason
 * the warning's) is part of that warning, not a decision of its own: appealing the warning
 * restores it (admin_answer_appeal), so it is named on the warning and not listed again. A
 * lifted warning leaves its removals standing, so they are listed (and appealable) on their own.
 */
export function buildMyDecisions(
  sanctions: SanctionRow[],
  removed: RemovedRow[],
  appeals: AppealRow[],
): MyDecision[] {
  const appealOf = (
    sanctionId: string | null,
    trackId: string | null,
    removedAt: string | null,
  ) => {
    const a = appeals.find((x) =>
      sanctionId
        ? x.sanction_id === sanctionId
        : x.track_id === trackId && sameInstant(x.removed_at, removedAt),
    );
    return a
      ? {
          status: a.status as 'open' | 'upheld' | 'overturned',
          dueAt: a.due_at,
          answer: a.answer_reason,
        }
      : null;
  };
  const warningOf = (t: RemovedRow) =>
    sanctions.find(
      (s) =>
        s.kind === 'warning' &&
        s.lifted_at === null &&
        s.reason === t.takedown_reason &&
        sameInstant(s.created_at, t.taken_down_at),
    );
  const ownRemovals = removed.filter((t) => !warningOf(t));
  const list: MyDecision[] = [
    ...sanctions.map((s) => {
      const decision = sanctionDecision(s, appealOf(s.id, null, null));
      const titles = removed
        .filter((t) => warningOf(t) === s)
        .map((t) => `"${t.title}"`)
        .sort();
      return titles.length > 0
        ? { ...decision, title: `${decision.title}, with the removal of ${titles.join(', ')}` }
        : decision;
    }),
    ...ownRemovals.map((t) => ({
      key: `removal:${t.id}`,
      kind: 'removal' as const,
      sanctionId: null,
      trackId: t.id,
      title: `Removal of "${t.title}"`,
      reason: t.takedown_reason ?? '',
      decidedAt: t.taken_down_at ?? '',
      endsAt: null,
      lifted: false,
      appeal: appealOf(null, t.id, t.taken_down_at),
    })),
  ];
  return list.sort((a, b) => Date.parse(b.decidedAt) - Date.parse(a.decidedAt));
}

/** The caller's sanctions and removed tracks, with their appeals (RLS: their own rows). */
export async function fetchMyDecisions(userId: string): Promise<MyDecision[]> {
  const client = await getSupabase();
  const [sanctions, removed, appeals] = await Promise.all([
    client
      .from('account_sanctions')
      .select('id, kind, reason, created_at, ends_at, lifted_at')
      .eq('user_id', userId)
      .order('created_at', { ascending: false }),
    client
      .from('tracks')
      .select('id, title, takedown_reason, taken_down_at')
      .eq('uploaded_by', userId)
      .not('taken_down_at', 'is', null)
      .is('hidden_by_sanction', null),
    client
      .from('moderation_appeals')
      .select('sanction_id, track_id, removed_at, status, due_at, answer_reason')
      .eq('user_id', userId),
  ]);
  const error = sanctions.error ?? removed.error ?? appeals.error;
  if (error) fail(error, 'Failed to load your moderation decisions');
  return buildMyDecisions(sanctions.data ?? [], removed.data ?? [], appeals.data ?? []);
}

export async function fileAppeal(
  decision: { sanctionId: string | null; trackId: string | null },
  statement: string,
): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('file_appeal', {
    p_statement: statement,
    p_sanction: decision.sanctionId ?? undefined,
    p_track: decision.trackId ?? undefined,
  });
  if (error) fail(error, 'Failed to send your appeal');
}

/**
 * The decision a ban e-mail's appeal link opens (no sign-in: docs/trust-and-safety.md § Action
 * links; the server checks the token, its decision and its expiry).
 */
export async function openAppealLink(token: string): Promise<MyDecision> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('action_link_open', { p_token: token });
  if (error) fail(error, 'Failed to open this link');
  const opened = data as {
    sanction?: SanctionRow;
    appeal?: {
      status: 'open' | 'upheld' | 'overturned';
      due_at: string;
      answer_reason: string | null;
    } | null;
  } | null;
  if (!opened?.sanction) throw new Error('This link is not for an appeal.');
  const a = opened.appeal;
  return sanctionDecision(
    opened.sanction,
    a ? { status: a.status, dueAt: a.due_at, answer: a.answer_reason } : null,
  );
}

/** Appeals the link's decision (once: the link is used up by it). */
export async function fileAppealByLink(
  token: string,
  sanctionId: string,
  statement: string,
): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('file_appeal_by_link', {
    p_token: token,
    p_sanction: sanctionId,
    p_statement: statement,
  });
  if (error) fail(error, 'Failed to send your appeal');
}
