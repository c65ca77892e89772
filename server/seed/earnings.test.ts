import { describe, expect, it } from 'vitest';
import { playsByMonth } from './earnings';

const DAY = 86_400_000;
const now = new Date('2026-11-29T07:00:00Z');
const months = (xs: { at: Date }[]) => new Set(xs.map((x) => x.at.toISOString().slice(0, 7)));

describe('playsByMonth', () => {
  it('spreads a year-old track over the 13 calendar months of the past 365 days, keeping the total', () => {
    const out = playsByMonth(100_000, new Date(now.getTime() - 400 * DAY), now);
    expect(months(out).size).toBe(13);
    expect(out.reduce((a, x) => a + x.plays, 0)).toBe(100_000);
    expect(out.every((x) => x.at <= now && x.at.getTime() >= now.getTime() - 365 * DAY)).toBe(true);
    // More in recent months than at the start.
    expect(out.at(-1)!.plays).toBeGreaterThan(out[0]!.plays);
  });

  it('starts at the release: a 320-day-old track has 11 months, a new one this month only', () => {
    const old = playsByMonth(4321, new Date(now.getTime() - 320 * DAY), now);
    expect(months(old).size).toBe(11);
    expect(old.reduce((a, x) => a + x.plays, 0)).toBe(4321);
    expect(old[0]!.at.getTime()).toBeGreaterThanOrEqual(now.getTime() - 320 * DAY);
    const fresh = playsByMonth(50, new Date(now.getTime() - 2 * DAY), now);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.plays).toBe(50);
  });

  it('gives no entry for no plays, and never a month of zero plays', () => {
    expect(playsByMonth(0, new Date(now.getTime() - 300 * DAY), now)).toEqual([]);
    const few = playsByMonth(3, new Date(now.getTime() - 300 * DAY), now);
    expect(few.reduce((a, x) => a + x.plays, 0)).toBe(3);
    expect(few.every((x) => x.plays > 0)).toBe(true);
  });
});
