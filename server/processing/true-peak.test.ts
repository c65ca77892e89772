/**
 * True peak by BS.1770-4 Annex 2 on signals whose true peak is known analytically.
 */
import { describe, expect, it } from 'vitest';
import { truePeakDb } from './true-peak';

const dB = (x: number) => 20 * Math.log10(x);

/**
 * A sine with 5 ms raised-cosine fades: a tone that starts or stops abruptly is not band-limited
 * and its reconstruction rings above the tone's amplitude at the edges (0.04 dB more here).
 */
function sine(rate: number, seconds: number, freq: number, phase: number, amplitude = 1) {
  const x = new Float32Array(Math.round(rate * seconds));
  const fade = Math.round(rate * 0.005);
  for (let i = 0; i < x.length; i++) {
    const edge = Math.min(i, x.length - 1 - i);
    const gain = edge < fade ? 0.5 - 0.5 * Math.cos((Math.PI * edge) / fade) : 1;
    x[i] = gain * amplitude * Math.sin((2 * Math.PI * freq * i) / rate + phase);
  }
  return x;
}

function samplePeakDb(x: Float32Array) {
  return dB(x.reduce((m, v) => Math.max(m, Math.abs(v)), 0));
}

describe('true peak (ITU-R BS.1770-4 Annex 2)', () => {
  for (const rate of [44_100, 48_000]) {
    it(`reads a full-scale sine at fs/4, 45° out of phase, at 0 dBTP (${rate} Hz)`, () => {
      // Its samples are ±sin(45°): the sample peak is 3.01 dB below the waveform's peak (1.0).
      const x = sine(rate, 1, rate / 4, Math.PI / 4);
      expect(samplePeakDb(x)).toBeCloseTo(-3.01, 2);
      const tp = truePeakDb([x])!;
      // The Annex's filter passes fs/4 within 0.05 dB.
      expect(Math.abs(tp)).toBeLessThan(0.05);
    });
  }

  it('takes the largest peak of every channel', () => {
    const quiet = sine(48_000, 1, 12_000, Math.PI / 4, 0.25);
    const loud = sine(48_000, 1, 12_000, Math.PI / 4, 0.5);
    expect(truePeakDb([quiet, loud])!).toBeCloseTo(dB(0.5), 1);
    expect(truePeakDb([loud, quiet])!).toBeCloseTo(dB(0.5), 1);
    expect(truePeakDb([new Float32Array(48_000), loud])!).toBeCloseTo(dB(0.5), 1);
  });

  it('finds one short inter-sample peak in a long quiet signal (no block is skipped wrongly)', () => {
    const rate = 44_100;
    const x = sine(rate, 30, 440, 0, 0.05);
    const burst = sine(rate, 0.02, rate / 4, Math.PI / 4, 0.5);
    x.set(burst, 20 * rate + 123);
    expect(samplePeakDb(x)).toBeCloseTo(dB(0.5) - 3.01, 1);
    expect(truePeakDb([x])!).toBeCloseTo(dB(0.5), 1);
  });

  it('never reads below the sample peak, and a sine at 1 kHz at its amplitude', () => {
    const x = sine(48_000, 1, 1000, 0.3, 10 ** (-6 / 20));
    expect(truePeakDb([x])!).toBeCloseTo(-6, 1);
    const dc = new Float32Array(1000).fill(-0.5);
    expect(truePeakDb([dc])!).toBeGreaterThanOrEqual(dB(0.5) - 1e-9);
  });

  it('reads a full-scale sine at 0.4 fs (a 5-sample period: few phases ever sampled) within 0.2 dB', () => {
    // libebur128's Hann-windowed interpolator (ebur128-wasm, used before) read -0.44 dBTP here.
    const x = sine(44_100, 1, 0.4 * 44_100, 0);
    expect(Math.abs(truePeakDb([x])!)).toBeLessThan(0.2);
  });

  it('reads a sine near the top of the band within the 4× method’s 0.69 dB', () => {
    // A worst case for 4× oversampling: 0.45 fs, its crest between the oversampled points.
    const x = sine(44_100, 1, 0.45 * 44_100, 0.4);
    const tp = truePeakDb([x])!;
    expect(tp).toBeLessThanOrEqual(0.1);
    expect(tp).toBeGreaterThan(-0.69);
  });

  it('is null for digital silence', () => {
    expect(truePeakDb([new Float32Array(4800), new Float32Array(4800)])).toBeNull();
    expect(truePeakDb([])).toBeNull();
  });
});
