/**
 * Renders an arrangement to mono PCM: every note and hit into its bus, kick sidechain ducking,
 * reverb and delay sends, vinyl texture, tone, fades, soft clipping and peak normalisation.
 *
 * On request it also returns the song's true stems (the separator's ground truth, bench only):
 * vocals = the lead bus, drums, bass, and other = chords + arp + the vinyl texture, each through
 * its own share of the reverb and delay sends, tone, DC blocker and fades (all linear, so the
 * stems add up to the master before saturation), then scaled sample by sample by the master's
 * own saturation and normalisation gain. They sum to the mix up to float rounding, and asking
 * for them changes nothing in the mix.
 */
import { Prng } from '../prng';
import { arrange, TAIL_SECONDS, type Arrangement, type Bus } from './arrange';
import { renderHit, addVinyl } from './drums';
import { addDelay, addReverb, mixInto, onePoleLowpass } from './dsp';
import type { GenreId } from './genres';
import { renderNote } from './instruments';

/** -15 dBFS. */
const TARGET_RMS = 0.178;

export const TRUE_STEMS = ['vocals', 'drums', 'bass', 'other'] as const;
export type TrueStem = (typeof TRUE_STEMS)[number];

type BusName = Bus | 'drums';
/** Which buses make each true stem (the lead is the song's "voice"). */
const STEM_BUSES: Record<TrueStem, BusName[]> = {
  vocals: ['lead'],
  drums: ['drums'],
  bass: ['bass'],
  other: ['chords', 'arp'],
};

export interface RenderedSong {
  /** Mono samples in [-1, 1]. */
  samples: Float32Array;
  sampleRate: number;
  bpm: number;
  barSeconds: number;
  bars: number;
  phrases: Arrangement['phrases'];
  /** The true stems (mono, same length), when asked for: they sum to `samples`. */
  stems?: Record<TrueStem, Float32Array>;
}

type Style = Arrangement['style'];

/** The buses' mix with their reverb and delay sends (linear in the buses; absent buses are silent). */
function mixBuses(
  buses: Partial<Record<BusName, Float32Array>>,
  total: number,
  style: Style,
  bpm: number,
  sr: number,
): Float32Array {
  const zero = new Float32Array(0);
  const bus = (name: BusName) => buses[name] ?? zero;
  const add = (dst: Float32Array, name: BusName, gain: number) => {
    if (buses[name]) mixInto(dst, bus(name), gain);
  };
  const master = new Float32Array(total);
  add(master, 'drums', style.drumGain);
  add(master, 'bass', 1);
  add(master, 'chords', 1);
  add(master, 'lead', 1);
  add(master, 'arp', 1);

  const send = new Float32Array(total);
  add(send, 'chords', 0.8);
  add(send, 'lead', 0.7);
  add(send, 'arp', 0.8);
  add(send, 'drums', 0.12 * style.drumGain);
  const echo = new Float32Array(total);
  add(echo, 'lead', 1);
  add(echo, 'arp', 0.5);
  addDelay(echo, send, style.delay.beats * (60 / bpm), style.delay.feedback, 0.5, sr);
  addDelay(echo, master, style.delay.beats * (60 / bpm), style.delay.feedback, style.delay.wet, sr);
  addReverb(send, master, style.reverb.room, style.reverb.damp, style.reverb.wet, sr);
  return master;
}

/**
 * Tone, DC blocker and fades (in over 10 ms, out over the last two bars and the tail), in place.
 * Returns the peak (of the unrounded values, as the master's normalisation always took it).
 */
function finish(buf: Float32Array, style: Style, fadeOutStart: number, sr: number): number {
  if (style.tone > 0) onePoleLowpass(buf, style.tone, sr);
  const total = buf.length;
  let prevIn = 0;
  let prevOut = 0;
  const fadeIn = Math.round(0.01 * sr);
  let peak = 0;
  for (let i = 0; i < total; i++) {
    const x = buf[i] as number;
    let y = x - prevIn + 0.995 * prevOut;
    prevIn = x;
    prevOut = y;
    if (i < fadeIn) y *= i / fadeIn;
    if (i > fadeOutStart) y *= Math.pow(1 - (i - fadeOutStart) / (total - fadeOutStart), 1.5);
    buf[i] = y;
    peak = Math.max(peak, Math.abs(y));
  }
  return peak;
}

export function renderSong(
  genre: GenreId,
  seconds: number,
  seed: string,
  sampleRate: number,
  options: { stems?: boolean } = {},
): RenderedSong {
  const song = arrange(genre, seconds, seed);
  const { style } = song;
  const sr = sampleRate;
  const total = Math.ceil((song.bars.length * song.barSeconds + TAIL_SECONDS) * sr);
  const rng = new Prng(`${seed}/render`);
  const buses: Record<BusName, Float32Array> = {
    chords: new Float32Array(total),
    bass: new Float32Array(total),
    lead: new Float32Array(total),
    arp: new Float32Array(total),
    drums: new Float32Array(total),
  };
  for (const { bus, inst, note } of song.notes) renderNote(buses[bus], inst, note, sr, rng);
  for (const hit of song.hits) renderHit(buses.drums, hit, sr, rng);

  // Sidechain: the kick pumps chords and bass.
  if (style.duck > 0) {
    const gain = new Float32Array(total).fill(1);
    for (const hit of song.hits) {
      if (hit.drum !== 'kick') continue;
      const start = Math.round(hit.t * sr);
      const len = Math.round(0.25 * sr);
      for (let i = 0; i < len && start + i < total; i++) {
        const g = 1 - style.duck * Math.exp((-i / sr) * 14);
        gain[start + i] = Math.min(gain[start + i] as number, g);
      }
    }
    for (let i = 0; i < total; i++) {
      const g = gain[i] as number;
      buses.chords[i] = (buses.chords[i] as number) * g;
      buses.bass[i] = (buses.bass[i] as number) * g;
    }
  }

  const master = mixBuses(buses, total, style, song.bpm, sr);
  const fadeOutStart = Math.round((song.bars.length - 2) * song.barSeconds * sr);
  let stems: Record<TrueStem, Float32Array> | undefined;
  if (options.stems) {
    stems = {} as Record<TrueStem, Float32Array>;
    for (const name of TRUE_STEMS) {
      const own = Object.fromEntries(STEM_BUSES[name].map((b) => [b, buses[b]]));
      stems[name] = mixBuses(own, total, style, song.bpm, sr);
    }
  }
  if (style.vinyl > 0) {
    const dry = stems ? master.slice() : null;
    addVinyl(master, style.vinyl, sr, rng);
    // The texture the master received, into "other".
    if (stems && dry) {
      const other = stems.other;
      for (let i = 0; i < total; i++) {
        other[i] = (other[i] as number) + (master[i] as number) - (dry[i] as number);
      }
    }
  }
  const peak = finish(master, style, fadeOutStart, sr);
  if (stems) for (const name of TRUE_STEMS) finish(stems[name], style, fadeOutStart, sr);
  const linear = stems ? master.slice() : null;
  // Gentle saturation, then one loudness for every track (-15 dBFS RMS), peaks at most -1 dBFS.
  const drive = 1.4;
  const norm = peak > 0 ? 1 / peak : 1;
  let outPeak = 0;
  let energy = 0;
  for (let i = 0; i < total; i++) {
    const y = Math.tanh((master[i] as number) * norm * drive);
    master[i] = y;
    outPeak = Math.max(outPeak, Math.abs(y));
    energy += y * y;
  }
  const rms = Math.sqrt(energy / total);
  const gain = Math.min(0.89 / (outPeak || 1), TARGET_RMS / (rms || 1));
  for (let i = 0; i < total; i++) master[i] = (master[i] as number) * gain;

  if (stems && linear) {
    // The master's gain at each sample (saturation and normalisation), applied to every stem.
    for (let i = 0; i < total; i++) {
      const x = linear[i] as number;
      const g = x !== 0 ? (master[i] as number) / x : gain * norm * drive;
      for (const name of TRUE_STEMS) stems[name][i] = (stems[name][i] as number) * g;
    }
  }

  return {
    samples: master,
    sampleRate: sr,
    bpm: song.bpm,
    barSeconds: song.barSeconds,
    bars: song.bars.length,
    phrases: song.phrases,
    ...(stems ? { stems } : {}),
  };
}
