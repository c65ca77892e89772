// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { recentMonths, statementCsv } from './statement-csv';

describe('statementCsv', () => {
  it('lists the opening balance, the lines and the closing balance with exact amounts', () => {
    const csv = statementCsv({
      month: '2026-11',
      openingBalance: 1.5,
      closingBalance: 0.0084,
      lines: [
        {
          day: '2026-11-03',
          kind: 'play',
          track: 'Night, "Live"',
          method: null,
          plays: 3,
          amount: 0.0063,
        },
        { day: '2026-11-04', kind: 'play', track: '=cmd', method: null, plays: 1, amount: 0.0021 },
        {
          day: '2026-11-05',
          kind: 'withdrawal',
          track: null,
          method: 'paypal',
          plays: 0,
          amount: -1.5,
        },
      ],
    });
    expect(csv.split('\r\n')).toEqual([
      'Date,Description,Track,Plays,Amount (EUR)',
      '2026-11-01,Opening balance,,,1.5000',
      '2026-11-03,Plays,"Night, ""Live""",3,0.0063',
      '2026-11-04,Plays,"=cmd",1,0.0021',
      '2026-11-05,Withdrawal (PayPal),,,-1.5000',
      ',Closing balance,,,0.0084',
      '',
    ]);
  });
  it('names the last months, newest first', () => {
    expect(recentMonths(new Date('2026-01-15T00:00:00Z'), 3)).toEqual([
      '2026-01',
      '2025-12',
      '2025-11',
    ]);
  });
});
