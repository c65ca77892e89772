import type {
  Insights,
  InsightsBucket,
  InsightsPeriod,
  PlaySource,
} from '@/data/remote/insights-remote';
import { csvCell } from '@/lib/csv';

export const PERIODS: { value: InsightsPeriod; label: string }[] = [
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: '90d', label: '90 days' },
  { value: '12m', label: '12 months' },
];

export const SOURCE_LABEL: Record<PlaySource, string> = {
  search: 'Search',
  explore: 'Explore',
  playlist: 'A playlist',
  artist_page: 'Your artist page',
  shared_link: 'A shared link',
  offline: 'Offline',
  other: 'Other',
};

/** 65 → '1:05'. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The x of a curve point: a time in the track, or a percentage of each track's length. */
export function curveTick(unit: Insights['unit']): (x: number) => string {
  return unit === 'second' ? clock : (x) => `${x}%`;
}

/** A bucket's label: a day ('3 Nov'), a week ('w/c 3 Nov') or a month ('Nov 26'); merged: a span. */
export function bucketLabel(period: InsightsPeriod, day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (period === '12m')
    return d.toLocaleDateString('en-GB', { month: 'short', year: '2-digit', timeZone: 'UTC' });
  const text = d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return period === '90d' ? `w/c ${text}` : text;
}

export function spanLabel(period: InsightsPeriod, since: string, bucket: string): string {
  return since === bucket
    ? bucketLabel(period, bucket)
    : `${bucketLabel(period, since)} – ${bucketLabel(period, bucket)}`;
}

/** A bucket's distinct listeners: '7', or a range '5–7' when the server could only bound them. */
export function listenersLabel(b: InsightsBucket): string {
  if (b.hidden || b.listeners === null) return '';
  return b.listeners_max === undefined
    ? b.listeners.toLocaleString('en-GB')
    : `${b.listeners.toLocaleString('en-GB')}–${b.listeners_max.toLocaleString('en-GB')}`;
}

/**
 * The curve's points to list in its table: every point of a short curve, else one every `step`
 * (and always the first and last), so the table stays readable beside the chart.
 */
export function tablePoints<T extends { x: number }>(points: T[], max = 61): T[] {
  if (points.length <= max) return points;
  const step = Math.ceil(points.length / (max - 1));
  return points.filter((_, i) => i % step === 0 || i === points.length - 1);
}

/** Everything the page shows as one CSV file (RFC 4180, CRLF). */
export function insightsCsv(data: Insights, scope: string): string {
  const t = data.totals;
  const rows: string[][] = [
    ['Soundloft insights', scope, `${data.from} to ${data.to} (UTC)`],
    [],
    ['Figure', 'Value'],
    ['Counted plays', String(t.plays)],
    ['Unique listeners', t.listeners === null ? 'fewer than 5' : String(t.listeners)],
    ...(t.followers === null ? [] : [['New followers', String(t.followers)]]),
    ['Likes', String(t.likes)],
    ['Playlist adds', String(t.playlist_adds)],
    ['Earnings (EUR)', String(t.earnings)],
    ['Skip rate in the first 30 s (%)', t.skip_rate === null ? '' : String(t.skip_rate)],
    ['Average listen time (s)', t.avg_listen_seconds === null ? '' : String(t.avg_listen_seconds)],
    [],
    ['From', 'To', 'Counted plays', 'Listeners', 'Likes', 'Playlist adds', 'Earnings (EUR)'],
    ...data.series.map((b) => [
      b.since,
      b.bucket,
      ...(b.hidden
        ? ['fewer than 5 listeners', '', '', '', '']
        : [
            String(b.plays),
            listenersLabel(b),
            String(b.likes),
            String(b.playlist_adds),
            String(b.earnings),
          ]),
    ]),
    [],
    [
      data.unit === 'second' ? 'Second' : 'Percent of the track',
      'Still listening (%)',
      'Reached by seeking (%)',
    ],
    ...(data.curve ?? []).map((p) => [String(p.x), String(p.share), String(p.seek)]),
    [],
    ['Source', 'Counted plays'],
    ...data.sources.map((s) => [SOURCE_LABEL[s.source], String(s.plays)]),
    [],
    ['Playlist', 'Plays it brought'],
    ...data.playlists.map((p) => [p.name, p.plays === null ? '' : String(p.plays)]),
  ];
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
