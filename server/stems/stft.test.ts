import { describe, expect, it } from 'vitest';
import { BINS, Stft, frameCount, windowNorm } from './stft';

describe('Stft', { timeout: 120_000 }, () => {
  it('reconstructs the signal exactly by weighted overlap-add, edges included', () => {
    for (const length of [1, 700, 5000, 44100]) {
      const x = new Float32Array(length);
      for (let n = 0; n < length; n++) x[n] = Math.sin(n * 0.01) + 0.3 * Math.cos(n * 1.7);
      const frames = frameCount(length);
      const stft = new Stft();
      const spec = new Float64Array(2 * BINS);
      const y = new Float64Array(length);
      for (let t = 0; t < frames; t++) {
        stft.forward(x, t, spec);
        stft.overlapAdd(spec, t, y);
      }
      const norm = windowNorm(length, frames);
      let worst = 0;
      for (let n = 0; n < length; n++)
        worst = Math.max(
          worst,
          Math.abs((y[n] as number) / (norm[n] as number) - (x[n] as number)),
        );
      expect(worst).toBeLessThan(1e-6);
    }
  });
});
