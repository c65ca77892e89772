/**
 * Renders an arrangement to mono PCM: every note and hit into its bus, kick sidechain ducking,
 * reverb and delay sends, vinyl texture, tone, fades, soft clipping and peak normalisation.
 */
import { Prng } from '../prng';
import { arrange, TAIL_SECONDS, type Arrangement, type Bus } from './arrange';
import { renderHit, addVinyl } from './drums';
import { addDelay, addReverb, mixInto, onePoleLowpass } from './dsp';
import type { GenreId } from './genres';
import { renderNote } from './instruments';

/** -15 dBFS. */
const TARGET_RMS = 0.178;

export interface RenderedSong {
  /** Mono samples in [-1, 1]. */
  samples: Float32Array;
  sampleRate: number;
  bpm: number;
  barSeconds: number;
  bars: number;
  phrases: Arrangement['phrases'];
}

export function renderSong(
  genre: GenreId,
  seconds: number,
  seed: string,
  sampleRate: number,
): RenderedSong {
  const song = arrange(genre, seconds, seed);
  const { style } = song;
  const sr = sampleRate;
  const total = Math.ceil((song.bars.length * song.barSeconds + TAIL_SECONDS) * sr);
  const rng = new Prng(`${seed}/render`);
  const buses: Record<Bus | 'drums', Float32Array> = {
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

  const master = new Float32Array(total);
  mixInto(master, buses.drums, style.drumGain);
  mixInto(master, buses.bass, 1);
  mixInto(master, buses.chords, 1);
  mixInto(master, buses.lead, 1);
  mixInto(master, buses.arp, 1);

  const send = new Float32Array(total);
  mixInto(send, buses.chords, 0.8);
  mixInto(send, buses.lead, 0.7);
  mixInto(send, buses.arp, 0.8);
  mixInto(send, buses.drums, 0.12 * style.drumGain);
  const echo = new Float32Array(total);
  mixInto(echo, buses.lead, 1);
  mixInto(echo, buses.arp, 0.5);
  addDelay(echo, send, style.delay.beats * (60 / song.bpm), style.delay.feedback, 0.5, sr);
  addDelay(
    echo,
    master,
    style.delay.beats * (60 / song.bpm),
    style.delay.feedback,
    style.delay.wet,
    sr,
  );
  addReverb(send, master, style.reverb.room, style.reverb.damp, style.reverb.wet, sr);

  if (style.vinyl > 0) addVinyl(master, style.vinyl, sr, rng);
  if (style.tone > 0) onePoleLowpass(master, style.tone, sr);

  // DC blocker, then fades: in over 10 ms, out over the last two bars and the tail.
  let prevIn = 0;
  let prevOut = 0;
  const fadeOutStart = Math.round((song.bars.length - 2) * song.barSeconds * sr);
  const fadeIn = Math.round(0.01 * sr);
  let peak = 0;
  for (let i = 0; i < total; i++) {
    const x = master[i] as number;
    let y = x - prevIn + 0.995 * prevOut;
    prevIn = x;
    prevOut = y;
    if (i < fadeIn) y *= i / fadeIn;
    if (i > fadeOutStart) y *= Math.pow(1 - (i - fadeOutStart) / (total - fadeOutStart), 1.5);
    master[i] = y;
    peak = Math.max(peak, Math.abs(y));
  }
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

  return {
    samples: master,
    sampleRate: sr,
    bpm: song.bpm,
    barSeconds: song.barSeconds,
    bars: song.bars.length,
    phrases: song.phrases,
  };
}
