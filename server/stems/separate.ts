/**
 * Separates a mixture into four stems (vocals, drums, bass, other) with classical DSP on the
 * spectrogram, no model: harmonic/percussive separation by median filtering (Fitzgerald 2010),
 * the harmonic part below ~200 Hz as bass, the centred harmonic part of the voice band as
 * vocals, and the residual as other. Every mask is applied to both channels alike, and `other`
 * is computed in the time domain as `mixture − vocals − drums − bass`, so the four stems sum
 * back to the mixture exactly (up to float rounding) whatever the masks are.
 */
import FFT from 'fft.js';
import { BINS, FRAME, HOP, Stft, frameCount, windowNorm } from './stft';

export const STEM_NAMES = ['vocals', 'drums', 'bass', 'other'] as const;
export type StemName = (typeof STEM_NAMES)[number];

export interface StemAudio {
  /** One entry per channel, same length as the input. */
  channels: Float32Array[];
}

export type Stems = Record<StemName, StemAudio>;

/** The four stems as MP3 files, what separateFile (separate-file.ts) answers. */
export interface StemFiles {
  files: Record<StemName, Uint8Array>;
  sampleRate: number;
  seconds: number;
  timings: { decode: number; separate: number; encode: number };
}

/** The separator's settings (chosen by measurement: docs/stems.md, `npm run bench -- stems`). */
export interface Tuning {
  /** Median filter lengths in frames (time) and bins (frequency). */
  timeMedian: number;
  freqMedian: number;
  /** Time median length for the bins below ~300 Hz (kick drums decay slowly). */
  lowTimeMedian: number;
  /** Vocals are the non-repeating part (REPET, adaptive) rather than the whole harmonic part. */
  repet: boolean;
  /** Periods each side of a frame in REPET's repeating model. */
  repetPeriods: number;
  /** The longest repeating period looked for, seconds. */
  repetMaxSeconds: number;
}

export const DEFAULT_TUNING: Tuning = {
  timeMedian: 17,
  freqMedian: 17,
  lowTimeMedian: 31,
  repet: true,
  repetPeriods: 5,
  repetMaxSeconds: 12,
};

export interface SeparateOptions {
  /** Called with a fraction in [0, 1] as the work advances. */
  onProgress?: (fraction: number) => void;
  tuning?: Partial<Tuning>;
}

const EPS = 1e-20;

function smoothStep(x: number, from: number, to: number): number {
  if (x <= from) return 0;
  if (x >= to) return 1;
  const u = (x - from) / (to - from);
  return 0.5 - 0.5 * Math.cos(Math.PI * u);
}

/** Median of `buf[0..n)` (reorders `buf`), by quickselect. */
function median(buf: Float64Array, n: number): number {
  const k = n >> 1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = buf[(lo + hi) >> 1] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((buf[i] as number) < pivot) i++;
      while ((buf[j] as number) > pivot) j--;
      if (i <= j) {
        const tmp = buf[i] as number;
        buf[i] = buf[j] as number;
        buf[j] = tmp;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return buf[k] as number;
}

/**
 * Running median of `x[0..n)` over windows of `width` (odd) values centred on each index, edges
 * replicated, into `out[0..n)` (`out[i]` at `out[outOffset + i·outStride]`). A sorted window is
 * kept: each step removes the value leaving and inserts the one entering (O(width) moves, no
 * re-selection).
 */
export function runningMedian(
  x: Float64Array,
  n: number,
  width: number,
  sorted: Float64Array,
  out: Float32Array | Float64Array,
  outOffset = 0,
  outStride = 1,
): void {
  const half = width >> 1;
  const at = (i: number) => x[i < 0 ? 0 : i >= n ? n - 1 : i] as number;
  for (let j = 0; j < width; j++) sorted[j] = at(j - half);
  sorted.subarray(0, width).sort();
  for (let i = 0; i < n; i++) {
    out[outOffset + i * outStride] = sorted[half] as number;
    if (i + 1 === n) break;
    const leaving = at(i - half);
    const entering = at(i + half + 1);
    if (leaving === entering) continue;
    // Remove `leaving` (present in the window), then insert `entering` in order.
    let p = 0;
    while ((sorted[p] as number) !== leaving) p++;
    if (entering > leaving) {
      while (p + 1 < width && (sorted[p + 1] as number) < entering) {
        sorted[p] = sorted[p + 1] as number;
        p++;
      }
    } else {
      while (p > 0 && (sorted[p - 1] as number) > entering) {
        sorted[p] = sorted[p - 1] as number;
        p--;
      }
    }
    sorted[p] = entering;
  }
}

/**
 * Median along time of each bin of `mag` (frames × BINS, frame-major), edges replicated, over
 * `length(f)` frames (odd).
 */
function timeMedian(
  mag: Float32Array,
  frames: number,
  length: (bin: number) => number,
): Float32Array {
  const out = new Float32Array(mag.length);
  const column = new Float64Array(frames);
  const sorted = new Float64Array(256);
  for (let f = 0; f < BINS; f++) {
    for (let t = 0; t < frames; t++) column[t] = mag[t * BINS + f] as number;
    runningMedian(column, frames, length(f), sorted, out, f, BINS);
  }
  return out;
}

/**
 * REPET's repeating model: for each bin below `bins` and each frame, the median of the magnitudes
 * `period` frames apart, `periods` each side (those inside the track). Only the bins that can be
 * vocals are modelled (the voice band ends at 11 kHz).
 */
function periodMedian(
  mag: Float32Array,
  frames: number,
  period: number,
  periods: number,
  bins: number,
): Float32Array {
  const out = new Float32Array(mag.length);
  const buf = new Float64Array(2 * periods + 1);
  for (let t = 0; t < frames; t++) {
    for (let f = 0; f < bins; f++) {
      let k = 0;
      for (let j = -periods; j <= periods; j++) {
        const u = t + j * period;
        if (u >= 0 && u < frames) buf[k++] = mag[u * BINS + f] as number;
      }
      out[t * BINS + f] = median(buf, k);
    }
  }
  return out;
}

/**
 * REPET's repeating period (Rafii & Pardo 2013), in frames: the strongest peak of the beat
 * spectrum (the autocorrelation along time of the power spectrogram, averaged over the bins
 * below ~5 kHz) between ~1 s and a third of the track.
 */
function repeatingPeriod(
  mag: Float32Array,
  frames: number,
  sampleRate: number,
  maxSeconds: number,
): number {
  const frameSeconds = HOP / sampleRate;
  const minLag = Math.round(1 / frameSeconds);
  const maxLag = Math.min(Math.round(maxSeconds / frameSeconds), Math.floor(frames / 3));
  if (maxLag <= minLag) return 0;
  const topBin = Math.min(BINS, Math.round((5000 * FRAME) / sampleRate));
  let size = 2;
  while (size < 2 * frames) size *= 2;
  const fft = new FFT(size);
  const input = new Float64Array(size);
  const spec = fft.createComplexArray() as number[];
  const back = fft.createComplexArray() as number[];
  const beat = new Float64Array(maxLag + 1);
  for (let f = 1; f < topBin; f += 2) {
    input.fill(0);
    for (let t = 0; t < frames; t++) input[t] = (mag[t * BINS + f] as number) ** 2;
    fft.realTransform(spec, input);
    fft.completeSpectrum(spec);
    for (let k = 0; k < size; k++) {
      spec[2 * k] = (spec[2 * k] as number) ** 2 + (spec[2 * k + 1] as number) ** 2;
      spec[2 * k + 1] = 0;
    }
    fft.inverseTransform(back, spec);
    const zero = (back[0] as number) || 1;
    // Unbiased (divided by the overlap), normalised per bin.
    for (let l = 0; l <= maxLag; l++)
      beat[l] = (beat[l] as number) + (back[2 * l] as number) / zero / (frames - l);
  }
  let best = minLag;
  for (let l = minLag; l <= maxLag; l++) if ((beat[l] as number) > (beat[best] as number)) best = l;
  return best;
}

/** Per-bin weights: the bass band (harmonic energy below ~200 Hz) and the voice band. */
function bandWeights(sampleRate: number): { bass: Float64Array; voice: Float64Array } {
  const bass = new Float64Array(BINS);
  const voice = new Float64Array(BINS);
  for (let f = 0; f < BINS; f++) {
    const hz = (f * sampleRate) / FRAME;
    bass[f] = 1 - smoothStep(hz, 150, 300);
    voice[f] = smoothStep(hz, 150, 300) * (1 - smoothStep(hz, 7000, 11000));
  }
  return { bass, voice };
}

/**
 * Separates `channels` (1 or 2 channels of equal length, any sample rate) into four stems.
 * Memory: two float32 magnitude spectrograms (4 × 1025 bytes per 512-sample hop) and four float32
 * stems: about 380 MB for 3 minutes of 44.1 kHz stereo. CPU-bound for seconds: run it on a worker.
 */
export function separate(
  channels: Float32Array[],
  sampleRate: number,
  options: SeparateOptions = {},
): Stems {
  if (channels.length < 1 || channels.length > 2) throw new Error('separate: 1 or 2 channels');
  const length = (channels[0] as Float32Array).length;
  const left = channels[0] as Float32Array;
  const right = channels[1] ?? left;
  const frames = frameCount(length);
  const stft = new Stft();
  const specL = new Float64Array(2 * BINS);
  const specR = new Float64Array(2 * BINS);
  const progress = options.onProgress ?? (() => {});
  const tuning = { ...DEFAULT_TUNING, ...options.tuning };
  const lowBins = Math.round((300 * FRAME) / sampleRate);

  // Pass 1: magnitude of the mixture (mean of the channels' magnitudes).
  const mag = new Float32Array(frames * BINS);
  for (let t = 0; t < frames; t++) {
    stft.forward(left, t, specL);
    if (right !== left) stft.forward(right, t, specR);
    else specR.set(specL);
    for (let f = 0; f < BINS; f++) {
      const a = Math.sqrt((specL[2 * f] as number) ** 2 + (specL[2 * f + 1] as number) ** 2);
      const b = Math.sqrt((specR[2 * f] as number) ** 2 + (specR[2 * f + 1] as number) ** 2);
      mag[t * BINS + f] = 0.5 * (a + b);
    }
    if ((t & 255) === 0) progress((0.25 * t) / frames);
  }
  const harmonic = timeMedian(mag, frames, (f) =>
    f < lowBins ? tuning.lowTimeMedian : tuning.timeMedian,
  );
  const period = tuning.repet
    ? repeatingPeriod(mag, frames, sampleRate, tuning.repetMaxSeconds)
    : 0;
  const { bass: bassBand, voice: voiceBand } = bandWeights(sampleRate);
  let voiceBins = BINS;
  while (voiceBins > 0 && (voiceBand[voiceBins - 1] as number) === 0) voiceBins--;
  const repeating =
    period > 0 ? periodMedian(mag, frames, period, tuning.repetPeriods, voiceBins) : null;
  progress(0.5);

  // Pass 2: masks per frame, applied to both channels, overlap-added into the stems.
  const out = (): Float32Array[] => channels.map(() => new Float32Array(length));
  const vocals = out();
  const drums = out();
  const bass = out();
  const percussive = new Float64Array(BINS);
  const frame = new Float64Array(BINS);
  const sorted = new Float64Array(tuning.freqMedian);
  const stemsOut = [vocals, drums, bass];
  const masked = Array.from({ length: 3 * channels.length }, () => new Float64Array(2 * BINS));
  const targets: Float32Array[] = [];
  const masks = [new Float64Array(BINS), new Float64Array(BINS), new Float64Array(BINS)];
  const [maskV, maskD, maskB] = masks as [Float64Array, Float64Array, Float64Array];
  for (let t = 0; t < frames; t++) {
    stft.forward(left, t, specL);
    if (right !== left) stft.forward(right, t, specR);
    else specR.set(specL);
    for (let f = 0; f < BINS; f++) frame[f] = mag[t * BINS + f] as number;
    runningMedian(frame, BINS, tuning.freqMedian, sorted, percussive);
    for (let f = 0; f < BINS; f++) {
      const h = (harmonic[t * BINS + f] as number) ** 2;
      const p = (percussive[f] as number) ** 2;
      const total = h + p + EPS;
      const harm = h / total;
      maskD[f] = p / total;
      maskB[f] = harm * (bassBand[f] as number);
      // Centre-ness: 1 where both channels agree in level and phase, 0 when hard-panned or anti-phase.
      const lr =
        (specL[2 * f] as number) * (specR[2 * f] as number) +
        (specL[2 * f + 1] as number) * (specR[2 * f + 1] as number);
      const power =
        (specL[2 * f] as number) ** 2 +
        (specL[2 * f + 1] as number) ** 2 +
        (specR[2 * f] as number) ** 2 +
        (specR[2 * f + 1] as number) ** 2;
      const centre = Math.max(0, Math.min(1, (2 * lr) / (power + EPS)));
      let voice = harm * (voiceBand[f] as number) * centre * centre;
      if (repeating) {
        // The part that does not repeat every period: min(model, M)/M is the repeating share.
        const m = mag[t * BINS + f] as number;
        const r = Math.min(repeating[t * BINS + f] as number, m);
        voice *= m > 0 ? 1 - (r * r) / (m * m) : 0;
      }
      maskV[f] = voice;
    }
    // The masked spectra (stem × channel), inverted two at a time (one complex inverse FFT).
    let n = 0;
    for (let s = 0; s < 3; s++) {
      const m = masks[s] as Float64Array;
      for (let c = 0; c < channels.length; c++) {
        const spec = c === 0 ? specL : specR;
        const dst = masked[n] as Float64Array;
        for (let f = 0; f < BINS; f++) {
          dst[2 * f] = (spec[2 * f] as number) * (m[f] as number);
          dst[2 * f + 1] = (spec[2 * f + 1] as number) * (m[f] as number);
        }
        targets[n++] = (stemsOut[s] as Float32Array[])[c] as Float32Array;
      }
    }
    for (let i = 0; i + 1 < n; i += 2) {
      stft.overlapAdd2(
        masked[i] as Float64Array,
        masked[i + 1] as Float64Array,
        t,
        targets[i] as Float32Array,
        targets[i + 1] as Float32Array,
      );
    }
    if (n % 2) stft.overlapAdd(masked[n - 1] as Float64Array, t, targets[n - 1] as Float32Array);
    if ((t & 255) === 0) progress(0.5 + (0.45 * t) / frames);
  }

  // Normalise the overlap-add and take the residual as `other`.
  const norm = windowNorm(length, frames);
  const other = out();
  for (let c = 0; c < channels.length; c++) {
    const x = channels[c] as Float32Array;
    const v = vocals[c] as Float32Array;
    const d = drums[c] as Float32Array;
    const b = bass[c] as Float32Array;
    const o = other[c] as Float32Array;
    for (let n = 0; n < length; n++) {
      const w = (norm[n] as number) > 1e-9 ? 1 / (norm[n] as number) : 0;
      v[n] = (v[n] as number) * w;
      d[n] = (d[n] as number) * w;
      b[n] = (b[n] as number) * w;
      o[n] = (x[n] as number) - (v[n] as number) - (d[n] as number) - (b[n] as number);
    }
  }
  progress(1);
  return {
    vocals: { channels: vocals },
    drums: { channels: drums },
    bass: { channels: bass },
    other: { channels: other },
  };
}
