/**
 * Short-time Fourier transform on fft.js (a kept radix-4 FFT; no hand-written FFT). Periodic Hann
 * window for analysis and synthesis, weighted overlap-add with per-sample normalisation, so that
 * `istft(stft(x)) = x` up to rounding, including the first and last frames.
 */
import FFT from 'fft.js';

export const FRAME = 2048;
export const HOP = 512;
export const BINS = FRAME / 2 + 1;

export const hann: Float64Array = (() => {
  const w = new Float64Array(FRAME);
  for (let i = 0; i < FRAME; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FRAME);
  return w;
})();

/** Frames needed to cover `length` samples when the signal is padded by FRAME/2 on both sides. */
export function frameCount(length: number): number {
  return Math.max(1, Math.ceil((length + FRAME) / HOP) - FRAME / HOP + 1);
}

/** Start sample (may be negative) of frame `t`. */
export function frameStart(t: number): number {
  return t * HOP - FRAME / 2;
}

export class Stft {
  private readonly fft = new FFT(FRAME);
  private readonly frame = new Float64Array(FRAME);
  private readonly full: number[] = this.fft.createComplexArray() as number[];
  private readonly back: number[] = this.fft.createComplexArray() as number[];

  /** Spectrum of frame `t` of `x` into `out` (interleaved re/im, BINS complex values). */
  forward(x: Float32Array | Float64Array, t: number, out: Float64Array): void {
    const start = frameStart(t);
    for (let i = 0; i < FRAME; i++) {
      const n = start + i;
      this.frame[i] = n >= 0 && n < x.length ? (x[n] as number) * (hann[i] as number) : 0;
    }
    this.fft.realTransform(this.full, this.frame);
    for (let k = 0; k < 2 * BINS; k++) out[k] = this.full[k] as number;
  }

  /**
   * Adds the windowed inverses of two spectra (BINS complex values each) into `ya` and `yb` at
   * frame `t`, with one complex inverse FFT: both signals are real, so the inverse of `A + i·B`
   * has `a` as its real part and `b` as its imaginary part.
   */
  overlapAdd2(
    a: Float64Array,
    b: Float64Array,
    t: number,
    ya: Float32Array | Float64Array,
    yb: Float32Array | Float64Array,
  ): void {
    const full = this.full;
    for (let k = 0; k < BINS; k++) {
      full[2 * k] = (a[2 * k] as number) - (b[2 * k + 1] as number);
      full[2 * k + 1] = (a[2 * k + 1] as number) + (b[2 * k] as number);
    }
    for (let k = BINS; k < FRAME; k++) {
      const m = FRAME - k;
      // conj(A[m]) + i·conj(B[m])
      full[2 * k] = (a[2 * m] as number) + (b[2 * m + 1] as number);
      full[2 * k + 1] = (b[2 * m] as number) - (a[2 * m + 1] as number);
    }
    this.fft.inverseTransform(this.back, full);
    const back = this.back;
    const start = frameStart(t);
    const from = Math.max(0, -start);
    const to = Math.min(FRAME, ya.length - start);
    for (let i = from; i < to; i++) {
      const n = start + i;
      const w = hann[i] as number;
      ya[n] = (ya[n] as number) + (back[2 * i] as number) * w;
      yb[n] = (yb[n] as number) + (back[2 * i + 1] as number) * w;
    }
  }

  /** Adds the windowed inverse of `spectrum` (BINS complex values) into `y` at frame `t`. */
  overlapAdd(spectrum: Float64Array, t: number, y: Float32Array | Float64Array): void {
    const full = this.full;
    for (let k = 0; k < BINS; k++) {
      full[2 * k] = spectrum[2 * k] as number;
      full[2 * k + 1] = spectrum[2 * k + 1] as number;
    }
    for (let k = BINS; k < FRAME; k++) {
      full[2 * k] = spectrum[2 * (FRAME - k)] as number;
      full[2 * k + 1] = -(spectrum[2 * (FRAME - k) + 1] as number);
    }
    this.fft.inverseTransform(this.back, full);
    const start = frameStart(t);
    for (let i = 0; i < FRAME; i++) {
      const n = start + i;
      if (n >= 0 && n < y.length)
        y[n] = (y[n] as number) + (this.back[2 * i] as number) * (hann[i] as number);
    }
  }
}

/** Sum of the squared windows over all frames at each sample: divide the overlap-add by it. */
export function windowNorm(length: number, frames: number): Float64Array {
  const norm = new Float64Array(length);
  for (let t = 0; t < frames; t++) {
    const start = frameStart(t);
    for (let i = 0; i < FRAME; i++) {
      const n = start + i;
      if (n >= 0 && n < length) norm[n] = (norm[n] as number) + (hann[i] as number) ** 2;
    }
  }
  return norm;
}
