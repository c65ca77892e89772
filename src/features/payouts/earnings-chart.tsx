import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { EarningsPoint } from '@/data/remote/payouts-remote';
import { formatEur } from '@/lib/euros';

export interface EarningsChartProps {
  points: EarningsPoint[];
  /** Formats an x label ('2026-11-03' → '3 Nov'). */
  tick: (label: string) => string;
}

/**
 * Earnings per period as bars (recharts). Loaded on demand by EarningsSection, so recharts stays
 * out of every other page's bundle. Hidden from screen readers and out of the tab order: the
 * section has the same figures as a table.
 */
export default function EarningsChart({ points, tick }: EarningsChartProps) {
  return (
    <div aria-hidden style={{ width: '100%', height: 240 }} data-testid="earnings-chart">
      <ResponsiveContainer width="100%" height="100%">
        {/* No accessibility layer: it makes the chart a keyboard stop (tabindex 0) inside a
            region hidden from assistive technology (axe 'aria-hidden-focus'). */}
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
            tickFormatter={tick}
            stroke="var(--mantine-color-dark-2)"
            fontSize={12}
            minTickGap={16}
          />
          <YAxis
            stroke="var(--mantine-color-dark-2)"
            fontSize={12}
            width={56}
            tickFormatter={(v: number) => formatEur(v)}
          />
          <Tooltip
            cursor={{ fill: 'var(--mantine-color-dark-5)' }}
            contentStyle={{
              background: 'var(--mantine-color-dark-7)',
              border: '1px solid var(--mantine-color-dark-4)',
            }}
            labelFormatter={(label) => tick(String(label))}
            formatter={(value) => [formatEur(Number(value)), 'Earned']}
          />
          <Bar dataKey="amount" fill="var(--mantine-color-ember-5)" radius={[3, 3, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
