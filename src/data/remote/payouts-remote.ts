/**
 * The artist's money, read from the server (docs/payouts.md): the balance (spec 7: profiles
 * select balance by id, here from profiles_private), earnings aggregated by the database, the
 * withdrawals, a month's statement, and the withdrawal request (spec 7: POST request-withdrawal
 * with the session's bearer token). Amounts stay as the server sent them (decimal numbers).
 */
import { getSupabase } from './client';

export interface EarningsPoint {
  /** 'YYYY-MM-DD' (daily) or 'YYYY-MM' (monthly). */
  label: string;
  amount: number;
  plays: number;
}

export interface TrackEarnings {
  trackId: string | null;
  title: string;
  plays: number;
  amount: number;
}

export interface Earnings {
  totalEarned: number;
  totalPlays: number;
  daily: EarningsPoint[];
  monthly: EarningsPoint[];
  tracks: TrackEarnings[];
}

export interface WithdrawalRecord {
  id: string;
  amount: number;
  method: 'paypal' | 'bank';
  details: string;
  status: string;
  createdAt: string;
  processedAt: string | null;
}

export interface StatementLine {
  day: string;
  kind: 'play' | 'withdrawal' | 'withdrawal_reversal';
  track: string | null;
  method: string | null;
  plays: number;
  amount: number;
}

export interface Statement {
  month: string;
  openingBalance: number;
  closingBalance: number;
  lines: StatementLine[];
}

function fail(error: { message?: string } | null, fallback: string): never {
  throw new Error(error?.message || fallback);
}

export async function fetchBalance(userId: string): Promise<number> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('profiles_private')
    .select('balance')
    .eq('id', userId)
    .maybeSingle();
  if (error) fail(error, 'Failed to load your balance');
  return Number(data?.balance ?? 0);
}

interface RawEarnings {
  total_earned: number;
  total_plays: number;
  daily: { day: string; amount: number; plays: number }[];
  monthly: { month: string; amount: number; plays: number }[];
  tracks: { track_id: string | null; title: string; plays: number; amount: number }[];
}

export async function fetchEarnings(days = 30, months = 12): Promise<Earnings> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('my_earnings', { days, months });
  if (error) fail(error, 'Failed to load your earnings');
  const raw = data as unknown as RawEarnings;
  return {
    totalEarned: Number(raw.total_earned),
    totalPlays: Number(raw.total_plays),
    daily: raw.daily.map((d) => ({ label: d.day, amount: Number(d.amount), plays: d.plays })),
    monthly: raw.monthly.map((m) => ({ label: m.month, amount: Number(m.amount), plays: m.plays })),
    tracks: raw.tracks.map((t) => ({
      trackId: t.track_id,
      title: t.title,
      plays: Number(t.plays),
      amount: Number(t.amount),
    })),
  };
}

/** Spec 7: withdrawals where user_id is the user, newest first. */
export async function fetchWithdrawals(userId: string): Promise<WithdrawalRecord[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('withdrawals')
    .select('id, amount, method, details, status, created_at, processed_at')
    .eq('user_id', userId)
    .order('created_at', { ascending: false });
  if (error) fail(error, 'Failed to load your payouts');
  return data.map((w) => ({
    id: w.id,
    amount: Number(w.amount),
    method: w.method as 'paypal' | 'bank',
    details: w.details,
    status: w.status,
    createdAt: w.created_at,
    processedAt: w.processed_at,
  }));
}

/** `month`: 'YYYY-MM'. */
export async function fetchStatement(month: string): Promise<Statement> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('my_earnings_statement', { month: `${month}-01` });
  if (error) fail(error, 'Failed to load the statement');
  const raw = data as unknown as {
    month: string;
    opening_balance: number;
    closing_balance: number;
    lines: StatementLine[];
  };
  return {
    month: raw.month,
    openingBalance: Number(raw.opening_balance),
    closingBalance: Number(raw.closing_balance),
    lines: raw.lines,
  };
}

export interface WithdrawalRequest {
  /** Decimal text in whole cents, e.g. '12.50'. */
  amount: string;
  method: 'paypal' | 'bank';
  /** The PayPal e-mail, or JSON {accountName, iban, swift} (spec 7). */
  details: string;
}

export const WITHDRAWAL_FALLBACK = 'Failed to request withdrawal. Please try again.';

/** Spec 7/8: the function's `error` field when it answers one, else the spec's fallback. */
export async function requestWithdrawal(request: WithdrawalRequest): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.functions.invoke('request-withdrawal', { body: request });
  if (!error) return;
  const context = (error as { context?: unknown }).context;
  if (context instanceof Response) {
    const body = (await context.json().catch(() => null)) as { error?: unknown } | null;
    if (typeof body?.error === 'string' && body.error) throw new Error(body.error);
    throw new Error('Failed to request withdrawal');
  }
  throw new Error(WITHDRAWAL_FALLBACK);
}
