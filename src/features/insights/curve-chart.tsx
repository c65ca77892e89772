import {
  Area,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { CurvePoint } from '@/data/remote/insights-remote';

export interface CurveChartProps {
  points: CurvePoint[];
  /** Formats an x value ('1:05', or '40 %' of the track). */
  tick: (x: number) => string;
}

/**
 * The listen-through curve (percent still listening) as a line, and the seconds reached by
 * seeking apart as a shaded area. Hidden from screen readers: the table beside it has the figures.
 */
export default function CurveChart({ points, tick }: CurveChartProps) {
  return (
    <div aria-hidden style={{ width: '100%', height: 240 }} data-testid="insights-curve-chart">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart
          data={points}
          margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-dark-4)" />
          <XAxis
            dataKey="x"
            type="number"
            domain={['dataMin', 'dataMax']}
            tickFormatter={tick}
            stroke="var(--mantine-color-dark-2)"
            fontSize={12}
          />
          <YAxis
            domain={[0, 100]}
            tickFormatter={(v: number) => `${v}%`}
            stroke="var(--mantine-color-dark-2)"
            fontSize={12}
            width={44}
          />
          <Tooltip
            contentStyle={{
              background: 'var(--mantine-color-dark-7)',
              border: '1px solid var(--mantine-color-dark-4)',
            }}
            labelFormatter={(x) => tick(Number(x))}
            formatter={(value, name) => [`${Number(value)}%`, String(name)]}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Area
            dataKey="seek"
            name="Reached by seeking"
            type="stepAfter"
            fill="var(--mantine-color-violet-8)"
            stroke="var(--mantine-color-violet-4)"
            isAnimationActive={false}
          />
          <Line
            dataKey="share"
            name="Still listening"
            type="stepAfter"
            dot={false}
            stroke="var(--mantine-color-ember-5)"
            strokeWidth={2}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
