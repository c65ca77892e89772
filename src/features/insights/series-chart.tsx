import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface SeriesChartProps {
  points: { label: string; plays: number }[];
}

/**
 * Counted plays per bucket as bars (recharts, as the payouts chart). Loaded on demand; hidden
 * from screen readers: the table beside it has the same figures.
 */
export default function SeriesChart({ points }: SeriesChartProps) {
  return (
    <div aria-hidden style={{ width: '100%', height: 220 }} data-testid="insights-series-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          data={points}
          margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid
            strokeDasharray="3 3"
            stroke="var(--mantine-color-dark-4)"
            vertical={false}
          />
          <XAxis
            dataKey="label"
            stroke="var(--mantine-color-dark-2)"
            fontSize={12}
            minTickGap={16}
          />
          <YAxis
            stroke="var(--mantine-color-dark-2)"
            fontSize={12}
            width={48}
            allowDecimals={false}
          />
          <Tooltip
            cursor={{ fill: 'var(--mantine-color-dark-5)' }}
            contentStyle={{
              background: 'var(--mantine-color-dark-7)',
              border: '1px solid var(--mantine-color-dark-4)',
            }}
            formatter={(value) => [Number(value).toLocaleString('en-GB'), 'Counted plays']}
          />
          <Bar dataKey="plays" fill="var(--mantine-color-ember-5)" radius={[3, 3, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
