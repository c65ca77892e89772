/**
 * Separation quality metrics (bench and tests), on mono signals:
 *
 * - **SDR** as BSS Eval defines it (Vincent, Gribonval & Févotte 2006; `bss_eval_sources` v3,
 *   museval v4 for one channel): the estimate is projected on the span of the true source delayed
 *   by 0…L−1 samples (a time-invariant distortion filter of L = 512 taps is allowed), and
 *   SDR = 10·log10(‖s_target‖² / ‖ŝ − s_target‖²). With `h` the least-squares filter
 *   (R·h = c, R the source's autocorrelation Toeplitz matrix, c the cross-correlation of the
 *   estimate with the delayed source), ‖s_target‖² = h·c and ‖ŝ − s_target‖² = ‖ŝ‖² − h·c.
 * - **SI-SDR** (Le Roux et al. 2019): s_target = α·s with α = ⟨ŝ, s⟩/‖s‖².
 *
 * Both are computed as museval does for SiSEC/MUSDB18: on windows of one second (no overlap), the
 * figure of a track being the median over its windows; windows where the true source is silent
 * (below −60 dBFS RMS) are left out (museval leaves out all-zero ones).
 */
import FFT from 'fft.js';

export const SDR_FILTER_TAPS = 512;
/** Windows whose true source is quieter than this RMS (−60 dBFS) are not scored. */
export const SILENT_RMS = 1e-3;
const EPS = 1e-12;

function dot(a: Float32Array | Float64Array, b: Float32Array | Float64Array): number {
  let s = 0;
  for (let n = 0; n < a.length; n++) s += (a[n] as number) * (b[n] as number);
  return s;
}

function db(num: number, den: number): number {
  return 10 * Math.log10(Math.max(num, EPS) / Math.max(den, EPS));
}

/** SI-SDR (dB) of `estimate` against `reference` over the whole signals. */
export function siSdr(reference: Float32Array, estimate: Float32Array): number {
  const refEnergy = dot(reference, reference);
  const alpha = refEnergy > 0 ? dot(estimate, reference) / refEnergy : 0;
  let target = 0;
  let noise = 0;
  for (let n = 0; n < reference.length; n++) {
    const t = alpha * (reference[n] as number);
    target += t * t;
    noise += ((estimate[n] as number) - t) ** 2;
  }
  return db(target, noise);
}

/**
 * Solves the symmetric Toeplitz system T·x = y (T[i][j] = r[|i − j|], positive definite) by
 * Levinson recursion, O(n²).
 */
export function solveToeplitz(r: Float64Array, y: Float64Array): Float64Array {
  const n = y.length;
  const r0 = r[0] as number;
  let f = new Float64Array(n);
  let next = new Float64Array(n);
  const x = new Float64Array(n);
  f[0] = 1 / r0;
  x[0] = (y[0] as number) / r0;
  for (let m = 1; m < n; m++) {
    let ef = 0;
    let ex = 0;
    for (let i = 0; i < m; i++) {
      ef += (r[m - i] as number) * (f[i] as number);
      ex += (r[m - i] as number) * (x[i] as number);
    }
    const denom = 1 - ef * ef;
    // Forward vector of size m + 1: ([f; 0] − ef·[0; reverse(f)]) / (1 − ef²).
    for (let i = 0; i <= m; i++) {
      const fi = i < m ? (f[i] as number) : 0;
      const bi = i > 0 ? (f[m - i] as number) : 0;
      next[i] = (fi - ef * bi) / denom;
    }
    [f, next] = [next, f];
    // x ← [x; 0] + (y[m] − ex)·reverse(f).
    const k = (y[m] as number) - ex;
    for (let i = 0; i <= m; i++) x[i] = (i < m ? (x[i] as number) : 0) + k * (f[m - i] as number);
  }
  return x;
}

/**
 * BSS Eval SDR with a distortion filter of `taps` taps on one window. The correlations are taken
 * by FFT (size ≥ window + taps, zero-padded as BSS Eval pads the delayed copies).
 */
export class SdrWindow {
  private readonly fft: FFT;
  private readonly size: number;
  private readonly fa: number[];
  private readonly fb: number[];
  private readonly prod: number[];
  private readonly corr: number[];
  private readonly input: Float64Array;

  constructor(
    readonly window: number,
    readonly taps = SDR_FILTER_TAPS,
  ) {
    let size = 4;
    while (size < window + taps) size *= 2;
    this.size = size;
    this.fft = new FFT(size);
    this.fa = this.fft.createComplexArray() as number[];
    this.fb = this.fft.createComplexArray() as number[];
    this.prod = this.fft.createComplexArray() as number[];
    this.corr = this.fft.createComplexArray() as number[];
    this.input = new Float64Array(size);
  }

  private spectrum(x: Float32Array, out: number[]): void {
    this.input.fill(0);
    for (let n = 0; n < x.length; n++) this.input[n] = x[n] as number;
    this.fft.realTransform(out, this.input);
    this.fft.completeSpectrum(out);
  }

  /** Σ_n x[n + k]·y[n] for k = 0 … taps−1, given the spectra of x and y. */
  private lags(fx: number[], fy: number[]): Float64Array {
    const p = this.prod;
    for (let k = 0; k < this.size; k++) {
      const xr = fx[2 * k] as number;
      const xi = fx[2 * k + 1] as number;
      const yr = fy[2 * k] as number;
      const yi = fy[2 * k + 1] as number;
      // X · conj(Y)
      p[2 * k] = xr * yr + xi * yi;
      p[2 * k + 1] = xi * yr - xr * yi;
    }
    this.fft.inverseTransform(this.corr, p);
    const out = new Float64Array(this.taps);
    for (let k = 0; k < this.taps; k++) out[k] = this.corr[2 * k] as number;
    return out;
  }

  /** SDR (dB) of `estimate` against `reference` (both of at most `window` samples). */
  sdr(reference: Float32Array, estimate: Float32Array): number {
    this.spectrum(reference, this.fa);
    this.spectrum(estimate, this.fb);
    const r = this.lags(this.fa, this.fa);
    // c[k] = Σ_n ŝ[n]·s[n − k]: the estimate against the source delayed by k.
    const c = this.lags(this.fb, this.fa);
    // A little diagonal loading keeps sparse (nearly band-limited) sources well conditioned.
    r[0] = (r[0] as number) * (1 + 1e-9) + EPS;
    const h = solveToeplitz(r, c);
    const target = dot(h, c);
    const energy = dot(estimate, estimate);
    return db(target, energy - target);
  }
}

export interface StemScore {
  /** Median over the scored windows, dB. */
  sdr: number;
  siSdr: number;
  /** Windows scored (the source not silent). */
  windows: number;
}

/** The median of `values` (NaN when empty). */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * SDR and SI-SDR of an estimated stem, museval style: one-second windows, median over the windows
 * where the true source is not silent.
 */
export function scoreStem(
  reference: Float32Array,
  estimate: Float32Array,
  sampleRate: number,
  sdrWindow = new SdrWindow(sampleRate),
): StemScore {
  const win = sdrWindow.window;
  const sdrs: number[] = [];
  const siSdrs: number[] = [];
  for (let start = 0; start + win <= reference.length; start += win) {
    const ref = reference.subarray(start, start + win);
    const est = estimate.subarray(start, start + win);
    if (Math.sqrt(dot(ref, ref) / win) < SILENT_RMS) continue;
    sdrs.push(sdrWindow.sdr(ref, est));
    siSdrs.push(siSdr(ref, est));
  }
  return { sdr: median(sdrs), siSdr: median(siSdrs), windows: sdrs.length };
}
