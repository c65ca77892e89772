/**
 * Signal-processing building blocks of the demo-music synthesiser: envelopes, band-limited
 * oscillators, a state-variable filter, a feedback delay and a small Freeverb-style reverb.
 * Everything works on mono Float32Array buffers at one sample rate.
 */

export const TWO_PI = Math.PI * 2;

export function midiToFreq(midi: number): number {
  return 440 * Math.pow(2, (midi - 69) / 12);
}

export interface Adsr {
  attack: number; // seconds
  decay: number;
  sustain: number; // level 0..1
  release: number;
}

/** The ADSR level `t` seconds after note-on, for a note held `hold` seconds. */
export function adsrAt(env: Adsr, t: number, hold: number): number {
  const u = t < hold ? t : hold;
  const { attack, decay, sustain } = env;
  let level: number;
  if (u < attack) level = u / attack;
  else if (u < attack + decay) level = 1 - ((u - attack) / decay) * (1 - sustain);
  else level = sustain;
  if (t < hold) return level;
  const r = t - hold;
  return r >= env.release ? 0 : level * (1 - r / env.release);
}

/** PolyBLEP residual: removes most aliasing from a naive saw or square at step edges. */
function polyBlep(t: number, dt: number): number {
  if (t < dt) {
    const x = t / dt;
    return x + x - x * x - 1;
  }
  if (t > 1 - dt) {
    const x = (t - 1) / dt;
    return x * x + x + x + 1;
  }
  return 0;
}

export type Wave = 'sine' | 'saw' | 'square' | 'triangle' | 'pulse25';

/** A phase-accumulating oscillator (one per voice). */
export class Osc {
  phase: number;
  #tri = 0;

  constructor(
    readonly wave: Wave,
    phase = 0,
  ) {
    this.phase = phase;
  }

  /** The next sample at frequency `freq` (Hz) for sample rate `sr`. */
  step(freq: number, sr: number): number {
    const dt = freq / sr;
    const t = this.phase;
    this.phase = t + dt >= 1 ? t + dt - 1 : t + dt;
    switch (this.wave) {
      case 'sine':
        return Math.sin(TWO_PI * t);
      case 'saw':
        return 2 * t - 1 - polyBlep(t, dt);
      case 'square':
      case 'pulse25': {
        const width = this.wave === 'square' ? 0.5 : 0.25;
        let v = t < width ? 1 : -1;
        v += polyBlep(t, dt);
        const t2 = t + (1 - width) >= 1 ? t - width : t + (1 - width);
        v -= polyBlep(t2, dt);
        return v;
      }
      case 'triangle': {
        // Leaky-integrated band-limited square.
        let v = t < 0.5 ? 1 : -1;
        v += polyBlep(t, dt);
        v -= polyBlep(t + 0.5 >= 1 ? t - 0.5 : t + 0.5, dt);
        this.#tri = dt * 4 * v + (1 - dt * 0.5) * this.#tri;
        return this.#tri;
      }
    }
  }
}

/** Chamberlin state-variable filter. Set the cutoff (control rate), then process samples. */
export class Svf {
  #low = 0;
  #band = 0;
  #f = 0.1;
  #damp = 1;

  /** Cutoff in Hz (kept below sr/6 for stability), q >= 0.5. */
  set(cutoff: number, q: number, sr: number): this {
    const x = (Math.PI * Math.min(cutoff, sr / 6)) / sr;
    this.#f = 2 * (x - (x * x * x) / 6 + (x * x * x * x * x) / 120); // 2 sin(x), x <= pi/6
    this.#damp = 1 / q;
    return this;
  }

  lowpass(x: number): number {
    this.#low += this.#f * this.#band;
    const high = x - this.#low - this.#damp * this.#band;
    this.#band += this.#f * high;
    return this.#low;
  }

  bandpass(x: number): number {
    this.lowpass(x);
    return this.#band;
  }
}

/** One-pole low-pass, in place. */
export function onePoleLowpass(buf: Float32Array, cutoff: number, sr: number): void {
  const a = Math.exp((-TWO_PI * cutoff) / sr);
  let y = 0;
  for (let i = 0; i < buf.length; i++) {
    y = (1 - a) * (buf[i] as number) + a * y;
    buf[i] = y;
  }
}

/** Feedback delay of `input` added into `out` (wet only). */
export function addDelay(
  input: Float32Array,
  out: Float32Array,
  delaySeconds: number,
  feedback: number,
  wet: number,
  sr: number,
): void {
  const d = Math.max(1, Math.round(delaySeconds * sr));
  const line = new Float32Array(d);
  let idx = 0;
  let lp = 0;
  for (let i = 0; i < input.length; i++) {
    const delayed = line[idx] as number;
    lp = 0.6 * delayed + 0.4 * lp; // darker repeats
    line[idx] = (input[i] as number) + lp * feedback;
    out[i] = (out[i] as number) + delayed * wet;
    idx = idx + 1 === d ? 0 : idx + 1;
  }
}

const COMBS = [1116, 1188, 1277, 1356];
const ALLPASSES = [556, 441];

/** Freeverb-style mono reverb of `input` added into `out` (wet only). */
export function addReverb(
  input: Float32Array,
  out: Float32Array,
  roomSize: number,
  damping: number,
  wet: number,
  sr: number,
): void {
  const scale = sr / 44100;
  const feedback = 0.7 + 0.28 * roomSize;
  const combOut = new Float32Array(input.length);
  // Four parallel damped combs, one at a time (each pass is a tight loop).
  for (const n of COMBS) {
    const len = Math.round(n * scale);
    const line = new Float32Array(len);
    let idx = 0;
    let store = 0;
    for (let i = 0; i < input.length; i++) {
      const y = line[idx] as number;
      store = y * (1 - damping) + store * damping;
      line[idx] = (input[i] as number) * 0.3 + store * feedback;
      idx = idx + 1 === len ? 0 : idx + 1;
      combOut[i] = (combOut[i] as number) + y;
    }
  }
  // Two series all-passes diffuse the echoes.
  for (const n of ALLPASSES) {
    const len = Math.round(n * scale);
    const line = new Float32Array(len);
    let idx = 0;
    for (let i = 0; i < input.length; i++) {
      const b = line[idx] as number;
      const x = combOut[i] as number;
      line[idx] = x + b * 0.5;
      combOut[i] = b - x;
      idx = idx + 1 === len ? 0 : idx + 1;
    }
  }
  for (let i = 0; i < input.length; i++) out[i] = (out[i] as number) + (combOut[i] as number) * wet;
}

/** Adds `src` × gain into `dst`. */
export function mixInto(dst: Float32Array, src: Float32Array, gain: number): void {
  for (let i = 0; i < dst.length; i++) dst[i] = (dst[i] as number) + (src[i] as number) * gain;
}
