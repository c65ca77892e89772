/**
 * Drum voices synthesised from sine sweeps and shaped noise, plus vinyl crackle for lo-fi.
 */
import type { Prng } from '../prng';
import { Svf, TWO_PI } from './dsp';

export type DrumId =
  'kick' | 'snare' | 'clap' | 'hat' | 'open-hat' | 'shaker' | 'rim' | 'chip-noise';

export interface Hit {
  t: number;
  drum: DrumId;
  vel: number;
}

const LENGTH: Record<DrumId, number> = {
  kick: 0.45,
  snare: 0.28,
  clap: 0.3,
  hat: 0.06,
  'open-hat': 0.32,
  shaker: 0.09,
  rim: 0.05,
  'chip-noise': 0.12,
};

/** Renders one drum hit into `buf` (added). */
export function renderHit(buf: Float32Array, hit: Hit, sr: number, rng: Prng): void {
  const start = Math.round(hit.t * sr);
  const length = Math.round(LENGTH[hit.drum] * sr);
  const filter = new Svf().set(
    hit.drum === 'clap' ? 1400 : 2400,
    hit.drum === 'clap' ? 1.2 : 0.7,
    sr,
  );
  let phase = 0;
  let prev = 0;
  let prev2 = 0;
  let held = 0;
  for (let i = 0; i < length; i++) {
    const idx = start + i;
    if (idx >= buf.length) break;
    const t = i / sr;
    let v = 0;
    switch (hit.drum) {
      case 'kick': {
        const freq = 48 + 110 * Math.exp(-t * 28);
        phase += freq / sr;
        v = Math.sin(TWO_PI * phase) * Math.exp(-t * 6.5);
        if (i < sr * 0.004) v += rng.bipolar() * 0.3 * (1 - i / (sr * 0.004)); // beater click
        v *= 1.1;
        break;
      }
      case 'snare': {
        phase += 190 / sr;
        const tone = Math.sin(TWO_PI * phase) * Math.exp(-t * 30) * 0.5;
        const noise = filter.bandpass(rng.bipolar()) * Math.exp(-t * 16);
        v = tone + noise * 1.4;
        break;
      }
      case 'clap': {
        const burst = t < 0.03 ? Math.exp(-((t * 1000) % 10) * 0.35) : Math.exp(-(t - 0.03) * 14);
        v = filter.bandpass(rng.bipolar()) * burst * 1.6;
        break;
      }
      case 'hat':
      case 'open-hat':
      case 'shaker': {
        const n = rng.bipolar();
        // Second difference: a cheap steep high-pass that keeps only the sizzle.
        const hp = n - 2 * prev + prev2;
        prev2 = prev;
        prev = n;
        const decay = hit.drum === 'hat' ? 60 : hit.drum === 'open-hat' ? 9 : 30;
        const attack = hit.drum === 'shaker' ? Math.min(1, t / 0.012) : 1;
        v = hp * 0.22 * attack * Math.exp(-t * decay);
        break;
      }
      case 'rim': {
        phase += 820 / sr;
        v = Math.sin(TWO_PI * phase) * Math.exp(-t * 90) * 0.6;
        break;
      }
      case 'chip-noise': {
        if (i % 6 === 0) held = rng.bipolar(); // sample-and-hold: the 8-bit noise channel
        v = held * 0.5 * Math.exp(-t * 28);
        break;
      }
    }
    buf[idx] = (buf[idx] as number) + v * hit.vel;
  }
}

/** Vinyl texture: a low hiss and sparse crackles, added to `buf`. */
export function addVinyl(buf: Float32Array, level: number, sr: number, rng: Prng): void {
  let lp = 0;
  for (let i = 0; i < buf.length; i++) {
    lp = 0.15 * rng.bipolar() + 0.85 * lp;
    let v = lp * 0.08;
    if (rng.next() < 6 / sr) v += rng.bipolar() * 0.9; // about six crackles a second
    buf[i] = (buf[i] as number) + v * level;
  }
}
