/**
 * The copyright flow's calls (docs/trust-and-safety.md): the public notice form's edge function,
 * the uploader's counter-notice RPC, the admin's decisions, and the reads of a notice (RLS: the
 * uploader reads their notice, admins every notice and the claimant's contact).
 */
import { getSupabase } from '@/data/remote/client';

export interface NoticeInput {
  claimantName: string;
  email: string;
  address?: string;
  phone?: string;
  work: string;
  trackUrls: string[];
  goodFaith: true;
  accuracy: true;
  signature: string;
}

export interface NoticeReceipt {
  noticeIds: string[];
  receivedAt: string;
  removalDue: string;
}

/** The function's `error` sentence when it answers one. */
async function functionError(error: unknown, fallback: string): Promise<Error> {
  const context = (error as { context?: unknown }).context;
  if (context instanceof Response) {
    const body = (await context.json().catch(() => null)) as { error?: unknown } | null;
    if (typeof body?.error === 'string' && body.error) return new Error(body.error);
  }
  return new Error(fallback);
}

export async function sendNotice(input: NoticeInput): Promise<NoticeReceipt> {
  const client = await getSupabase();
  const { data, error } = await client.functions.invoke<NoticeReceipt>('copyright-notice', {
    body: input,
  });
  if (error || !data) {
    throw await functionError(error, 'The notice could not be sent. Please try again.');
  }
  return data;
}

export interface CounterInput {
  fullName: string;
  address: string;
  phone: string;
  email: string;
  explanation: string;
  signature: string;
}

/**
 * The uploader's counter-notice: signed in, or with `token`, the removal e-mail's link (no
 * sign-in: a banned uploader's way; docs/trust-and-safety.md § Action links).
 */
export async function sendCounterNotice(
  noticeId: string,
  input: CounterInput,
  token?: string,
): Promise<void> {
  const client = await getSupabase();
  const args = {
    p_notice: noticeId,
    p_full_name: input.fullName,
    p_address: input.address,
    p_phone: input.phone,
    p_email: input.email,
    p_explanation: input.explanation,
    p_good_faith_mistake: true,
    p_consent_to_jurisdiction: true,
    p_signature: input.signature,
  };
  const { error } = token
    ? await client.rpc('copyright_counter_notify_by_link', { ...args, p_token: token })
    : await client.rpc('copyright_counter_notify', args);
  if (error) throw new Error(error.message);
}

/** What the claimant's legal-action link opens (`copyright_claimant_legal_action_info`). */
export interface LegalActionLink {
  notice_id: string;
  claimant_name: string;
  work: string;
  tracks: { id: string; title: string; artist: string }[];
  counter_at: string;
  restore_due: string;
}

export async function loadLegalActionLink(token: string): Promise<LegalActionLink> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('copyright_claimant_legal_action_info', {
    p_token: token,
  });
  if (error) throw new Error(error.message);
  return data as unknown as LegalActionLink;
}

export interface LegalActionInput {
  court: string;
  caseReference: string;
  statement: string;
  signature: string;
}

export async function recordClaimantLegalAction(
  token: string,
  input: LegalActionInput,
): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('copyright_claimant_record_legal_action', {
    p_token: token,
    p_court: input.court,
    p_case_reference: input.caseReference,
    p_statement: input.statement,
    p_confirmed: true,
    p_signature: input.signature,
  });
  if (error) throw new Error(error.message);
}

export interface BusinessHoliday {
  day: string;
  name: string;
}

/** The holidays business days skip (public), oldest first. */
export async function loadBusinessHolidays(): Promise<BusinessHoliday[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('business_holidays')
    .select('day, name')
    .order('day')
    .limit(1000);
  if (error) throw new Error(error.message);
  return data ?? [];
}

export type Decision =
  'copyright_remove' | 'copyright_reject' | 'copyright_restore' | 'copyright_record_legal_action';

export async function decideNotice(decision: Decision, noticeId: string, reason: string) {
  const client = await getSupabase();
  const args = { p_notice: noticeId, p_reason: reason };
  // Each name spelled out: the hostile-input suite finds the app's RPCs by their literal names.
  const { error } =
    decision === 'copyright_remove'
      ? await client.rpc('copyright_remove', args)
      : decision === 'copyright_reject'
        ? await client.rpc('copyright_reject', args)
        : decision === 'copyright_restore'
          ? await client.rpc('copyright_restore', args)
          : await client.rpc('copyright_record_legal_action', args);
  if (error) throw new Error(error.message);
}

export interface NoticeDetail {
  notice: {
    id: string;
    status: string;
    claimant_name: string;
    work_description: string;
    signature: string;
    track_ids: string[];
    uploader_id: string | null;
    received_at: string;
    acknowledge_due: string;
    acknowledged_at: string | null;
    removal_due: string;
    removed_at: string | null;
    counter_at: string | null;
    restore_due: string | null;
    legal_action_at: string | null;
    legal_action_by: string | null;
    restored_at: string | null;
    rejected_at: string | null;
    decision_reason: string | null;
  };
  contact: { email: string; address: string | null; phone: string | null } | null;
  counter: {
    full_name: string;
    address: string;
    phone: string | null;
    email: string;
    explanation: string;
    signature: string;
    created_at: string;
  } | null;
  tracks: { id: string; title: string; artist: string }[];
}

/** A notice as the caller may read it (null when they may not). */
export async function loadNotice(noticeId: string): Promise<NoticeDetail | null> {
  const client = await getSupabase();
  const notice = await client
    .from('copyright_notices')
    .select('*')
    .eq('id', noticeId)
    .maybeSingle();
  if (notice.error) throw new Error(notice.error.message);
  if (!notice.data) return null;
  const [contact, counter, tracks] = await Promise.all([
    client
      .from('copyright_notice_contacts')
      .select('email, address, phone')
      .eq('notice_id', noticeId),
    client
      .from('copyright_counter_notices')
      .select('full_name, address, phone, email, explanation, signature, created_at')
      .eq('notice_id', noticeId),
    client.from('tracks').select('id, title, artist').in('id', notice.data.track_ids),
  ]);
  for (const r of [contact, counter, tracks]) if (r.error) throw new Error(r.error.message);
  return {
    notice: notice.data,
    contact: contact.data?.[0] ?? null,
    counter: counter.data?.[0] ?? null,
    tracks: tracks.data ?? [],
  };
}

/** A notice opened with the removal e-mail's link (no sign-in; the server checks the token). */
export async function loadNoticeByLink(token: string): Promise<NoticeDetail> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('action_link_open', { p_token: token });
  if (error) throw new Error(error.message);
  const opened = data as { notice?: NoticeDetail['notice']; tracks?: NoticeDetail['tracks'] };
  if (!opened.notice) throw new Error('This link is not for a counter-notice.');
  return { notice: opened.notice, contact: null, counter: null, tracks: opened.tracks ?? [] };
}
