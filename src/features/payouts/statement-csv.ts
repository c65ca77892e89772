import type { Statement } from '@/data/remote/payouts-remote';
import { csvCell } from '@/lib/csv';

const KIND_LABEL = {
  play: 'Plays',
  withdrawal: 'Withdrawal',
  withdrawal_reversal: 'Withdrawal returned',
} as const;

/** Exact decimal text of a ledger amount (4 decimals, as the ledger keeps them). */
function exact(value: number): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(value));
  if (!m) return String(value);
  return `${m[1]}${m[2]}.${((m[3] ?? '') + '0000').slice(0, 4)}`;
}

/**
 * A month's earnings statement as CSV (RFC 4180, CRLF): the opening balance, one row per day,
 * kind and track, the closing balance. Amounts in EUR with the ledger's 4 decimals; text cells
 * that a spreadsheet would run as a formula are quoted.
 */
export function statementCsv(s: Statement): string {
  const rows: string[][] = [
    ['Date', 'Description', 'Track', 'Plays', 'Amount (EUR)'],
    [`${s.month}-01`, 'Opening balance', '', '', exact(s.openingBalance)],
    ...s.lines.map((l) => [
      l.day,
      l.kind === 'withdrawal' && l.method
        ? `${KIND_LABEL[l.kind]} (${l.method === 'paypal' ? 'PayPal' : 'bank transfer'})`
        : KIND_LABEL[l.kind],
      l.track ?? '',
      l.kind === 'play' ? String(l.plays) : '',
      exact(Number(l.amount)),
    ]),
    ['', 'Closing balance', '', '', exact(s.closingBalance)],
  ];
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** 'soundloft-earnings-2026-11.csv' */
export const statementFileName = (month: string) => `soundloft-earnings-${month}.csv`;

/** The last `count` months, newest first, as 'YYYY-MM' (UTC). */
export function recentMonths(now: Date, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    out.push(d.toISOString().slice(0, 7));
  }
  return out;
}
