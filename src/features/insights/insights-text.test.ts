import { describe, expect, it } from 'vitest';
import type { Insights } from '@/data/remote/insights-remote';
import { clock, insightsCsv, spanLabel, tablePoints } from './insights-text';

const data: Insights = {
  period: '30d',
  from: '2026-10-31',
  to: '2026-11-29',
  track: null,
  duration: null,
  unit: 'percent',
  min_listeners: 5,
  totals: {
    plays: 12,
    listeners: 7,
    followers: 1,
    likes: 2,
    playlist_adds: 0,
    earnings: 0.0252,
    listens: 15,
    skip_rate: 20,
    avg_listen_seconds: 31.5,
  },
  series: [
    {
      bucket: '2026-11-29',
      since: '2026-11-27',
      merged: 3,
      plays: 12,
      listeners: 7,
      earnings: 0.0252,
      likes: 2,
      playlist_adds: 0,
    },
  ],
  curve: [
    { x: 0, share: 100, seek: 0 },
    { x: 1, share: 80, seek: 0 },
  ],
  sources: [{ source: 'explore', plays: 12 }],
  playlists: [{ id: 'p', name: '=cmd()', plays: null }],
  tracks: [],
};

describe('insights text', () => {
  it('writes every figure as CSV, quoting what a spreadsheet would run', () => {
    const csv = insightsCsv(data, 'All tracks');
    expect(csv.split('\r\n')[0]).toBe(
      'Soundloft insights,All tracks,2026-10-31 to 2026-11-29 (UTC)',
    );
    expect(csv).toContain('\r\nCounted plays,12\r\n');
    expect(csv).toContain('\r\n2026-11-27,2026-11-29,12,7,2,0,0.0252\r\n');
    expect(csv).toContain('\r\n0,100,0\r\n1,80,0\r\n');
    expect(csv).toContain('\r\nExplore,12\r\n');
    expect(csv).toContain('\r\n"=cmd()",\r\n');
    // a bounded span's listeners as a range; a hidden span has no figure at all
    const bounded = insightsCsv(
      {
        ...data,
        series: [
          { ...data.series[0]!, listeners: 6, listeners_max: 7 },
          {
            bucket: '2026-11-30',
            since: '2026-11-30',
            merged: 1,
            hidden: true,
            plays: null,
            listeners: null,
            earnings: null,
            likes: null,
            playlist_adds: null,
          },
        ],
      },
      'All tracks',
    );
    expect(bounded).toContain('\r\n2026-11-27,2026-11-29,12,6–7,2,0,0.0252\r\n');
    expect(bounded).toContain('\r\n2026-11-30,2026-11-30,fewer than 5 listeners,,,,\r\n');
  });

  it('labels times, merged spans and thins long curves for the table', () => {
    expect(clock(65)).toBe('1:05');
    expect(spanLabel('30d', '2026-11-27', '2026-11-29')).toBe('27 Nov – 29 Nov');
    expect(spanLabel('12m', '2026-11-01', '2026-11-01')).toBe('Nov 26');
    const points = Array.from({ length: 181 }, (_, x) => ({ x }));
    const shown = tablePoints(points);
    expect(shown[0]).toEqual({ x: 0 });
    expect(shown.at(-1)).toEqual({ x: 180 });
    expect(shown.length).toBeLessThanOrEqual(61);
  });
});
