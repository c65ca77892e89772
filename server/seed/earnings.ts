/**
 * When the seeded plays happened: a track's plays spread over the calendar months (UTC) from its
 * release, at most 12 months back, to now, more in recent months (a ramp, as a catalogue that
 * finds listeners), so the payouts chart, the daily view and the monthly statements look like an
 * artist's real history instead of one day's lump. Each month's share becomes one ledger entry
 * dated in the middle of the part of that month the track was out. The shares add up to the
 * track's plays exactly, so totals stay `plays × play_rate_eur()`.
 */
const DAY_MS = 86_400_000;
/** How far back seeded earnings go. */
export const SEEDED_HISTORY_DAYS = 365;

export interface MonthlyPlays {
  plays: number;
  at: Date;
}

export function playsByMonth(plays: number, releasedAt: Date, now: Date): MonthlyPlays[] {
  if (plays <= 0) return [];
  const start = new Date(
    Math.max(releasedAt.getTime(), now.getTime() - SEEDED_HISTORY_DAYS * DAY_MS),
  );
  if (start.getTime() >= now.getTime()) return [{ plays, at: now }];
  const spans: { from: number; to: number }[] = [];
  let y = start.getUTCFullYear();
  let m = start.getUTCMonth();
  for (;;) {
    const monthStart = Date.UTC(y, m, 1);
    if (monthStart > now.getTime()) break;
    const monthEnd = Date.UTC(y, m + 1, 1);
    spans.push({
      from: Math.max(monthStart, start.getTime()),
      to: Math.min(monthEnd, now.getTime()),
    });
    m += 1;
    if (m === 12) [y, m] = [y + 1, 0];
  }
  // Month i (from 0) weighs i + 1: the total weight is 1 + 2 + … + n.
  const total = (spans.length * (spans.length + 1)) / 2;
  let given = 0;
  const out: MonthlyPlays[] = [];
  spans.forEach((span, i) => {
    const share = i === spans.length - 1 ? plays - given : Math.floor((plays * (i + 1)) / total);
    given += share;
    if (share > 0) out.push({ plays: share, at: new Date(Math.floor((span.from + span.to) / 2)) });
  });
  return out;
}
