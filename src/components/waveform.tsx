import { useId, useMemo, type CSSProperties } from 'react';

export interface WaveformProps {
  /** min, max pairs (BBC audiowaveform's `data`, 8 or 16 bits: drawn relative to the loudest). */
  data: readonly number[];
  /** The played part, 0..1, drawn in the played colour. */
  progress: number;
  /** Bars drawn across the width. */
  bars?: number;
  height: number;
  playedColor?: string;
  restColor?: string;
  className?: string;
  style?: CSSProperties;
}

/**
 * Folds min/max pairs into `bars` heights in 0..1, scaled to the loudest bar (a quiet track
 * still shows its shape), with a floor so silence stays visible as a line.
 */
export function waveformBars(data: readonly number[], bars: number): number[] {
  const pairs = Math.floor(data.length / 2);
  if (pairs === 0 || bars <= 0) return [];
  const heights = Array.from({ length: bars }, (_, bar) => {
    const from = Math.floor((bar * pairs) / bars);
    const to = Math.max(from + 1, Math.floor(((bar + 1) * pairs) / bars));
    let peak = 0;
    for (let i = from; i < to && i < pairs; i++) {
      peak = Math.max(peak, Math.abs(data[2 * i] ?? 0), Math.abs(data[2 * i + 1] ?? 0));
    }
    return peak;
  });
  const loudest = Math.max(...heights) || 1;
  return heights.map((h) => Math.max(0.04, h / loudest));
}

/**
 * A track's waveform as bars (SoundCloud's seek bar), the played part in another colour. Drawn
 * for the eye only (aria-hidden): the control around it is the accessible seek slider.
 */
export function Waveform({
  data,
  progress,
  bars = 160,
  height,
  playedColor = 'var(--mantine-primary-color-filled)',
  restColor = 'var(--mantine-color-dark-3)',
  className,
  style,
}: WaveformProps) {
  const clipId = useId();
  const heights = useMemo(() => waveformBars(data, bars), [data, bars]);
  const path = useMemo(
    () =>
      heights
        .map((h, i) => `M${i + 0.15} ${(50 - h * 50).toFixed(2)}h0.7v${(h * 100).toFixed(2)}h-0.7z`)
        .join(''),
    [heights],
  );
  const played = Math.min(1, Math.max(0, Number.isFinite(progress) ? progress : 0));
  return (
    <svg
      aria-hidden
      focusable="false"
      viewBox={`0 0 ${heights.length} 100`}
      preserveAspectRatio="none"
      width="100%"
      height={height}
      className={className}
      style={{ display: 'block', ...style }}
      data-testid="waveform"
    >
      <clipPath id={clipId}>
        <rect x={0} y={0} width={played * heights.length} height={100} />
      </clipPath>
      <path d={path} fill={restColor} />
      <path d={path} fill={playedColor} clipPath={`url(#${clipId})`} />
    </svg>
  );
}
