/**
 * The ideal ratio mask (an oracle, bench only): each stem = the mixture's STFT × |S_k|² / Σ_j |S_j|²
 * with the true stems S_k known, through the separator's own STFT (server/stems/stft.ts). The
 * upper bound of what a mask on this spectrogram can do (SiSEC's "IRM2" oracle); like the
 * separator, its stems sum back to the mixture.
 */
import { BINS, Stft, frameCount, windowNorm } from './stft';

/** `sources[k]` is the k-th true stem (one channel); `mixture` their sum. */
export function idealRatioMask(mixture: Float32Array, sources: Float32Array[]): Float32Array[] {
  const length = mixture.length;
  const frames = frameCount(length);
  const stft = new Stft();
  const mix = new Float64Array(2 * BINS);
  const specs = sources.map(() => new Float64Array(2 * BINS));
  const power = sources.map(() => new Float64Array(BINS));
  const masked = new Float64Array(2 * BINS);
  const out = sources.map(() => new Float32Array(length));
  for (let t = 0; t < frames; t++) {
    stft.forward(mixture, t, mix);
    sources.forEach((s, k) => stft.forward(s, t, specs[k] as Float64Array));
    for (let f = 0; f < BINS; f++) {
      let total = 1e-20;
      for (let k = 0; k < sources.length; k++) {
        const spec = specs[k] as Float64Array;
        const p = (spec[2 * f] as number) ** 2 + (spec[2 * f + 1] as number) ** 2;
        (power[k] as Float64Array)[f] = p;
        total += p;
      }
      for (let k = 0; k < sources.length; k++)
        (power[k] as Float64Array)[f] = ((power[k] as Float64Array)[f] as number) / total;
    }
    for (let k = 0; k < sources.length; k++) {
      const m = power[k] as Float64Array;
      for (let f = 0; f < BINS; f++) {
        masked[2 * f] = (mix[2 * f] as number) * (m[f] as number);
        masked[2 * f + 1] = (mix[2 * f + 1] as number) * (m[f] as number);
      }
      stft.overlapAdd(masked, t, out[k] as Float32Array);
    }
  }
  const norm = windowNorm(length, frames);
  for (const y of out) {
    for (let n = 0; n < length; n++) {
      const w = norm[n] as number;
      y[n] = w > 1e-9 ? (y[n] as number) / w : 0;
    }
  }
  return out;
}
