/**
 * Pitched instruments of the demo-music synthesiser. Each renders one note additively into a
 * mono buffer: subtractive synths (detuned saws through a filter), two-operator FM (electric
 * piano, bell), additive organ and Karplus-Strong plucked strings.
 */
import type { Prng } from '../prng';
import { adsrAt, midiToFreq, Osc, Svf, TWO_PI, type Adsr } from './dsp';

export type InstrumentId =
  | 'pad'
  | 'warm-pad'
  | 'saw-lead'
  | 'chip-lead'
  | 'epiano'
  | 'bell'
  | 'organ'
  | 'pluck'
  | 'saw-bass'
  | 'sub-bass'
  | 'reese'
  | 'pluck-bass'
  | 'chip-bass';

export interface Note {
  /** Start, seconds. */
  t: number;
  /** Held length, seconds (the release rings after it). */
  dur: number;
  midi: number;
  vel: number;
}

/** Samples between control-rate updates (filter cutoffs, vibrato, FM index). */
const CONTROL = 32;

const ENV: Record<InstrumentId, Adsr> = {
  pad: { attack: 0.35, decay: 0.6, sustain: 0.75, release: 0.9 },
  'warm-pad': { attack: 1.2, decay: 1.0, sustain: 0.8, release: 2.2 },
  'saw-lead': { attack: 0.01, decay: 0.25, sustain: 0.65, release: 0.18 },
  'chip-lead': { attack: 0.003, decay: 0.08, sustain: 0.6, release: 0.05 },
  epiano: { attack: 0.004, decay: 1.4, sustain: 0.25, release: 0.35 },
  bell: { attack: 0.002, decay: 2.2, sustain: 0, release: 1.5 },
  organ: { attack: 0.006, decay: 0.12, sustain: 0.7, release: 0.08 },
  pluck: { attack: 0.001, decay: 0, sustain: 1, release: 0.08 },
  'saw-bass': { attack: 0.005, decay: 0.2, sustain: 0.7, release: 0.06 },
  'sub-bass': { attack: 0.01, decay: 0.3, sustain: 0.85, release: 0.12 },
  reese: { attack: 0.02, decay: 0.4, sustain: 0.9, release: 0.15 },
  'pluck-bass': { attack: 0.001, decay: 0, sustain: 1, release: 0.1 },
  'chip-bass': { attack: 0.002, decay: 0.05, sustain: 0.8, release: 0.03 },
};

/** How long a note rings after its start (held length plus release, or a natural decay). */
function ringSeconds(inst: InstrumentId, note: Note, freq: number): number {
  if (inst === 'pluck' || inst === 'pluck-bass') return note.dur + Math.min(3, 900 / freq);
  if (inst === 'bell') return Math.min(note.dur + 1.5, 4);
  return note.dur + ENV[inst].release;
}

function detunedSaws(count: number, cents: number, rng: Prng): { osc: Osc; ratio: number }[] {
  return Array.from({ length: count }, (_, i) => ({
    osc: new Osc('saw', rng.next()),
    ratio: Math.pow(2, ((i - (count - 1) / 2) * cents) / 1200),
  }));
}

function karplusStrong(
  buf: Float32Array,
  start: number,
  length: number,
  freq: number,
  gain: number,
  brightness: number,
  decay: number,
  sr: number,
  rng: Prng,
): void {
  const period = Math.max(2, Math.round(sr / freq));
  const line = new Float32Array(period);
  // A filtered noise burst excites the string.
  let lp = 0;
  for (let i = 0; i < period; i++) {
    lp = brightness * rng.bipolar() + (1 - brightness) * lp;
    line[i] = lp;
  }
  let idx = 0;
  for (let i = 0; i < length && start + i < buf.length; i++) {
    const cur = line[idx] as number;
    const nextIdx = idx + 1 === period ? 0 : idx + 1;
    line[idx] = decay * 0.5 * (cur + (line[nextIdx] as number));
    idx = nextIdx;
    buf[start + i] = (buf[start + i] as number) + cur * gain;
  }
}

/** Renders `note` on `inst` into `buf` (added). */
export function renderNote(
  buf: Float32Array,
  inst: InstrumentId,
  note: Note,
  sr: number,
  rng: Prng,
): void {
  const freq = midiToFreq(note.midi);
  const start = Math.round(note.t * sr);
  const length = Math.round(ringSeconds(inst, note, freq) * sr);
  const env = ENV[inst];
  const gain = note.vel;
  if (inst === 'pluck' || inst === 'pluck-bass') {
    const bright = inst === 'pluck' ? 0.75 : 0.35;
    const decay = inst === 'pluck' ? 0.997 : 0.995;
    karplusStrong(buf, start, length, freq, gain, bright, decay, sr, rng);
    return;
  }
  const saws =
    inst === 'pad' || inst === 'warm-pad'
      ? detunedSaws(3, inst === 'pad' ? 14 : 9, rng)
      : inst === 'saw-lead'
        ? detunedSaws(2, 8, rng)
        : inst === 'reese'
          ? detunedSaws(2, 22, rng)
          : inst === 'saw-bass'
            ? detunedSaws(1, 0, rng)
            : [];
  const chip = new Osc(inst === 'chip-lead' ? 'pulse25' : 'square', 0);
  const tri = new Osc('triangle', 0);
  const filter = new Svf();
  let modPhase = 0;
  let carPhase = rng.next();
  const lfoRate = 0.2 + rng.next() * 0.3;
  // Control-rate values, updated every CONTROL samples.
  let pitch = 1;
  let index = 0;
  let tremolo = 1;
  for (let i = 0; i < length; i++) {
    const idx = start + i;
    if (idx >= buf.length) break;
    const t = i / sr;
    const amp = adsrAt(env, t, note.dur);
    if (amp <= 0 && t > note.dur) break;
    if (i % CONTROL === 0) {
      const abs = note.t + t;
      switch (inst) {
        case 'pad':
        case 'warm-pad': {
          const lfo = 0.5 + 0.5 * Math.sin(TWO_PI * lfoRate * abs);
          const cutoff = inst === 'pad' ? 900 + lfo * 1100 : 600 + lfo * 500;
          filter.set(cutoff, 1.1, sr);
          break;
        }
        case 'saw-lead':
          pitch = t > 0.18 ? 1 + 0.004 * Math.sin(TWO_PI * 5.5 * t) : 1;
          filter.set(1300 + 2300 * Math.exp(-t * 6), 1.6, sr);
          break;
        case 'chip-lead':
          pitch = t > 0.15 ? 1 + 0.006 * Math.sin(TWO_PI * 6 * t) : 1;
          break;
        case 'epiano':
          index = 0.4 + 2.2 * Math.exp(-t * 5);
          tremolo = 0.9 + 0.1 * Math.sin(TWO_PI * 4.5 * abs);
          break;
        case 'bell':
          index = 1.5 * Math.exp(-t * 1.2);
          break;
        case 'saw-bass':
          filter.set(250 + 1100 * Math.exp(-t * 14), 1.8, sr);
          break;
        case 'reese':
          filter.set(280 + 520 * (0.5 + 0.5 * Math.sin(TWO_PI * 0.7 * abs)), 1.4, sr);
          break;
        default:
          break;
      }
    }
    let v = 0;
    switch (inst) {
      case 'pad':
      case 'warm-pad':
        for (const s of saws) v += s.osc.step(freq * s.ratio, sr);
        v = filter.lowpass(v / 3);
        break;
      case 'saw-lead':
        for (const s of saws) v += s.osc.step(freq * s.ratio * pitch, sr);
        v = filter.lowpass(v / 2);
        break;
      case 'chip-lead':
      case 'chip-bass':
        v = chip.step(freq * pitch, sr) * 0.45;
        break;
      case 'epiano':
      case 'bell': {
        modPhase += (freq * (inst === 'epiano' ? 1 : 3.5)) / sr;
        carPhase += freq / sr;
        v = Math.sin(TWO_PI * carPhase + index * Math.sin(TWO_PI * modPhase)) * 0.6 * tremolo;
        break;
      }
      case 'organ': {
        carPhase += freq / sr;
        const p = TWO_PI * carPhase;
        const s1 = Math.sin(p);
        const c1 = Math.cos(p);
        const s2 = 2 * s1 * c1; // sin 2p
        const c2 = c1 * c1 - s1 * s1;
        v = 0.5 * s1 + 0.3 * s2 + 0.18 * (s1 * c2 + c1 * s2) + 0.1 * (2 * s2 * c2);
        if (t < 0.03) v += 0.05 * Math.sin(8 * p); // key click
        break;
      }
      case 'saw-bass': {
        const saw = saws[0]?.osc.step(freq, sr) ?? 0;
        carPhase += freq / sr;
        v = filter.lowpass(saw) * 0.7 + 0.5 * Math.sin(TWO_PI * carPhase);
        break;
      }
      case 'sub-bass':
        carPhase += freq / sr;
        v = 0.8 * Math.sin(TWO_PI * carPhase) + 0.25 * tri.step(freq, sr);
        break;
      case 'reese':
        for (const s of saws) v += s.osc.step(freq * s.ratio, sr);
        carPhase += freq / sr;
        v = filter.lowpass(v / 2) * 0.8 + 0.45 * Math.sin(TWO_PI * carPhase);
        break;
      default:
        break;
    }
    buf[idx] = (buf[idx] as number) + v * amp * gain;
  }
}
