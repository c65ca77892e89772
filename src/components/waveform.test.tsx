import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Waveform, waveformBars } from './waveform';

describe('waveformBars', () => {
  it('folds min/max pairs into bars, scaled to the loudest, with a floor for silence', () => {
    // Four pairs into two bars: the first bar's peak is 20 (|-20|), the second's 127.
    const bars = waveformBars([-10, 10, -20, 5, 0, 0, -64, 127], 2);
    expect(bars[0]).toBeCloseTo(20 / 127, 5);
    expect(bars[1]).toBe(1);
    expect(waveformBars([0, 0, 0, 0], 2)).toEqual([0.04, 0.04]);
    expect(waveformBars([], 10)).toEqual([]);
  });

  it('draws more bars than pairs by repeating pairs (a short track)', () => {
    expect(waveformBars([-64, 64, -127, 127], 4)).toEqual([64 / 127, 64 / 127, 1, 1]);
  });
});

describe('Waveform', () => {
  it('is hidden from screen readers and clips the played part at the progress', () => {
    const { container } = render(
      <Waveform data={[-10, 10, -20, 20, -30, 30, -40, 40]} progress={0.25} bars={4} height={40} />,
    );
    const svg = container.querySelector('svg');
    expect(svg).toHaveAttribute('aria-hidden', 'true');
    expect(svg).toHaveAttribute('viewBox', '0 0 4 100');
    expect(container.querySelector('clipPath rect')).toHaveAttribute('width', '1');
    expect(container.querySelectorAll('path')).toHaveLength(2);
  });
});
