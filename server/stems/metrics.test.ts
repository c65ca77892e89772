import { describe, expect, it } from 'vitest';
import { SdrWindow, scoreStem, siSdr, solveToeplitz } from './metrics';
import { noise } from './test-signals';

const RATE = 8000;

function energy(x: Float32Array): number {
  let e = 0;
  for (const v of x) e += v * v;
  return e;
}

/** `reference` plus `error` scaled so that the reference-to-error energy ratio is `snrDb`. */
function withSnr(reference: Float32Array, error: Float32Array, snrDb: number): Float32Array {
  const g = Math.sqrt(energy(reference) / energy(error) / 10 ** (snrDb / 10));
  return reference.map((v, n) => v + g * (error[n] as number));
}

describe('solveToeplitz', () => {
  it('solves a symmetric positive-definite Toeplitz system', () => {
    const r = Float64Array.from([4, 1.5, -0.5, 0.25]);
    const y = Float64Array.from([1, 2, 3, 4]);
    const x = solveToeplitz(r, y);
    for (let i = 0; i < 4; i++) {
      let row = 0;
      for (let j = 0; j < 4; j++) row += (r[Math.abs(i - j)] as number) * (x[j] as number);
      expect(row).toBeCloseTo(y[i] as number, 10);
    }
  });
});

describe('SI-SDR', () => {
  const s = noise(RATE, 1, 1);
  const n = noise(RATE, 1, 2);

  it('gives the SNR of an added independent noise, whatever the scale', () => {
    for (const snr of [-5, 0, 10, 20]) {
      const est = withSnr(s, n, snr);
      expect(siSdr(s, est)).toBeCloseTo(snr, 0);
      expect(
        siSdr(
          s,
          est.map((v) => 0.3 * v),
        ),
      ).toBeCloseTo(siSdr(s, est), 6);
    }
  });

  it('is very high for the source itself and very low for unrelated noise', () => {
    expect(siSdr(s, s)).toBeGreaterThan(100);
    expect(siSdr(s, n)).toBeLessThan(-15);
  });
});

describe('BSS Eval SDR (512-tap distortion filter)', () => {
  const window = new SdrWindow(RATE);
  const s = noise(RATE, 1, 3);
  const n = noise(RATE, 1, 4);

  it('gives the SNR of an added independent noise', () => {
    for (const snr of [0, 10, 20]) {
      // 512 filter taps fit a little of the noise: at most ~10·log10(1 + 512/8000) dB higher.
      const sdr = window.sdr(s, withSnr(s, n, snr));
      expect(sdr).toBeGreaterThan(snr - 0.3);
      expect(sdr).toBeLessThan(snr + 0.6);
    }
  });

  it('allows a time-invariant filter (delay and gain) where SI-SDR does not', () => {
    const filtered = new Float32Array(RATE);
    for (let i = 0; i < RATE; i++) {
      filtered[i] = 0.5 * ((s[i - 3] ?? 0) as number) - 0.25 * ((s[i - 40] ?? 0) as number);
    }
    // Not infinite: the filtered source's last 40 samples spill past the window (as in BSS Eval,
    // the delayed copies are zero-padded, the estimate is not): about −29 dB of error.
    expect(window.sdr(s, filtered)).toBeGreaterThan(25);
    expect(siSdr(s, filtered)).toBeLessThan(-10);
    // A delay longer than the filter is not a distortion but an error.
    const late = new Float32Array(RATE);
    for (let i = 600; i < RATE; i++) late[i] = s[i - 600] as number;
    expect(window.sdr(s, late)).toBeLessThan(-10);
  });
});

describe('scoreStem', () => {
  it('takes the median over one-second windows and leaves out silent ones', () => {
    const length = 5 * RATE;
    const s = noise(length, 1, 5);
    s.fill(0, 2 * RATE, 3 * RATE); // one silent second
    const est = new Float32Array(length);
    const n = noise(length, 1, 6);
    // Windows at 0, 10, 20 and 30 dB SNR (the silent one left out): median 15 dB.
    const snrs = [0, 10, null, 20, 30];
    snrs.forEach((snr, w) => {
      const ref = s.subarray(w * RATE, (w + 1) * RATE);
      const part = snr === null ? ref : withSnr(ref, n.subarray(w * RATE, (w + 1) * RATE), snr);
      est.set(part, w * RATE);
    });
    const score = scoreStem(s, est, RATE);
    expect(score.windows).toBe(4);
    expect(score.siSdr).toBeCloseTo(15, 0);
    expect(score.sdr).toBeGreaterThan(14.7);
    expect(score.sdr).toBeLessThan(15.6);
  });
});
