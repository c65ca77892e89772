import { describe, expect, it } from 'vitest';
import { buildMyDecisions } from './moderation-remote';

// As PostgREST returns them: a warning and the track it removed share the transaction's now().
const AT = '2026-11-20T10:00:00.123456+00:00';
const warning = {
  id: 'w1',
  kind: 'warning',
  reason: 'Hateful lyrics.',
  created_at: AT,
  ends_at: null,
  lifted_at: null,
};
const byWarning = {
  id: 't1',
  title: 'Loud',
  takedown_reason: 'Hateful lyrics.',
  taken_down_at: AT,
};
const byReport = {
  id: 't2',
  title: 'Quiet',
  takedown_reason: 'Removed as spam.',
  taken_down_at: '2026-11-21T08:00:00.5+00:00',
};

describe('buildMyDecisions', () => {
  it('lists a track removed by a warning once, on the warning, and a report removal alone', () => {
    const list = buildMyDecisions([warning], [byWarning, byReport], []);
    expect(list.map((d) => [d.key, d.title])).toEqual([
      ['removal:t2', 'Removal of "Quiet"'],
      ['sanction:w1', 'Warning, with the removal of "Loud"'],
    ]);
  });

  it('keeps a removal with the same reason at another time as its own decision', () => {
    const later = { ...byWarning, id: 't3', title: 'Later', taken_down_at: '2026-11-22T00:00:00Z' };
    const list = buildMyDecisions([warning], [byWarning, later], []);
    expect(list.map((d) => d.key)).toEqual(['removal:t3', 'sanction:w1']);
  });

  it("lists a lifted warning's removal on its own (it stands, and is appealed alone)", () => {
    const lifted = { ...warning, lifted_at: '2026-11-23T00:00:00Z' };
    const list = buildMyDecisions([lifted], [byWarning], []);
    expect(list.map((d) => [d.key, d.title, d.lifted])).toEqual([
      ['sanction:w1', 'Warning', true],
      ['removal:t1', 'Removal of "Loud"', false],
    ]);
  });

  it('attaches each appeal to its decision', () => {
    const appeal = {
      sanction_id: null,
      track_id: 't2',
      removed_at: '2026-11-21T08:00:00.500+00:00',
      status: 'open',
      due_at: '2026-11-30T08:00:00Z',
      answer_reason: null,
    };
    const list = buildMyDecisions([warning], [byWarning, byReport], [appeal]);
    expect(list.find((d) => d.key === 'removal:t2')?.appeal).toEqual({
      status: 'open',
      dueAt: '2026-11-30T08:00:00Z',
      answer: null,
    });
    expect(list.find((d) => d.key === 'sanction:w1')?.appeal).toBeNull();
  });
});
