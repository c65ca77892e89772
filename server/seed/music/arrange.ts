/**
 * Composition: turns a genre style and a seed into a song's events: sections (intro, verses,
 * choruses, a break, outro), a chord progression, bass line, chord pattern, arpeggio, a lead
 * melody built from repeated two-bar motifs, and drum hits.
 */
import { Prng } from '../prng';
import type { Hit, DrumId } from './drums';
import { chordNotes, GENRES, scaleNote, type GenreId, type GenreStyle, type Mode } from './genres';
import type { InstrumentId, Note } from './instruments';

/** Ring-out after the last bar, seconds. */
export const TAIL_SECONDS = 1.5;

export type SectionKind = 'intro' | 'verse' | 'chorus' | 'break' | 'outro';
export type Bus = 'chords' | 'bass' | 'lead' | 'arp';

export interface Arrangement {
  style: GenreStyle;
  bpm: number;
  mode: Mode;
  root: number;
  barSeconds: number;
  bars: SectionKind[];
  notes: { bus: Bus; inst: InstrumentId; note: Note }[];
  hits: Hit[];
  /** Start of every two-bar melody phrase of the verses and choruses (lyric lines align here). */
  phrases: { t: number; kind: 'verse' | 'chorus' }[];
}

/** Bars per section: intro, alternating verse / chorus (a break in long songs), outro. */
export function planSections(bars: number): SectionKind[] {
  const edge = bars >= 16 ? 4 : 2;
  const plan: SectionKind[] = Array<SectionKind>(edge).fill('intro');
  let middle = bars - 2 * edge;
  // Short songs get four-bar sections, so they still have a verse and a chorus.
  const chunk = middle < 16 ? 4 : 8;
  const cycle: SectionKind[] =
    middle >= 32 ? ['verse', 'chorus', 'break', 'verse', 'chorus'] : ['verse', 'chorus'];
  for (let i = 0; middle > 0; i++) {
    const len = Math.min(chunk, middle);
    plan.push(...Array<SectionKind>(len).fill(cycle[i % cycle.length] as SectionKind));
    middle -= len;
  }
  plan.push(...Array<SectionKind>(edge).fill('outro'));
  return plan;
}

interface MotifNote {
  step: number; // 16th within the two-bar phrase (0..31)
  len: number; // in 16ths
  degree: number; // scale degree above the lead's tonic
}

function makeMotif(rng: Prng, density: number, lift: number): MotifNote[] {
  const out: MotifNote[] = [];
  let degree = lift + rng.int(0, 4);
  for (let step = 0; step < 28; step += 2) {
    const strong = step % 8 === 0;
    const p = Math.min(0.95, density + (strong ? 0.3 : 0) - (step >= 24 ? 0.25 : 0));
    if (!rng.chance(p)) continue;
    degree += rng.pick([-2, -1, -1, 0, 1, 1, 2, 3]);
    degree = Math.max(lift - 2, Math.min(lift + 7, degree));
    out.push({ step, len: 2, degree });
  }
  if (out.length === 0) out.push({ step: 0, len: 8, degree: lift });
  // Each note lasts until the next one (at most a beat and a half).
  for (let i = 0; i < out.length; i++) {
    const cur = out[i] as MotifNote;
    const next = out[i + 1]?.step ?? 32;
    cur.len = Math.max(1, Math.min(6, next - cur.step));
  }
  return out;
}

/** The chord tone (in scale degrees) nearest to `degree`. */
function snapToChord(degree: number, chordDegree: number): number {
  let best = degree;
  let bestDist = Infinity;
  for (let d = degree - 3; d <= degree + 3; d++) {
    const rel = (((d - chordDegree) % 7) + 7) % 7;
    if ((rel === 0 || rel === 2 || rel === 4) && Math.abs(d - degree) < bestDist) {
      best = d;
      bestDist = Math.abs(d - degree);
    }
  }
  return best;
}

function voiced(notes: number[], root: number): number[] {
  return notes
    .map((n) => {
      let v = n;
      while (v > root + 14) v -= 12;
      while (v < root - 3) v += 12;
      return v;
    })
    .sort((a, b) => a - b);
}

export function arrange(genre: GenreId, seconds: number, seed: string): Arrangement {
  const style = GENRES[genre];
  const rng = new Prng(seed);
  const bpm = rng.int(style.bpm[0], style.bpm[1]);
  const mode = rng.pick(style.modes);
  const root = rng.int(style.rootRange[0], style.rootRange[1]);
  const progression = rng.pick(style.progressions);
  const beat = 60 / bpm;
  const barSeconds = beat * 4;
  const six = beat / 4;
  // Whole two-bar phrases; with the ring-out tail the song lasts at least `seconds`.
  const bars = Math.max(8, Math.ceil((seconds - TAIL_SECONDS) / barSeconds / 2) * 2);
  const plan = planSections(bars);
  const at = (bar: number, step: number) => {
    const swing = step % 4 === 2 ? style.swing : step % 2 === 1 ? style.swing / 2 : 0;
    return bar * barSeconds + (step + swing) * six;
  };
  const notes: Arrangement['notes'] = [];
  const hits: Hit[] = [];
  const phrases: Arrangement['phrases'] = [];
  const add = (bus: Bus, inst: InstrumentId, t: number, dur: number, midi: number, vel: number) =>
    notes.push({ bus, inst, note: { t, dur, midi, vel: vel * (0.92 + 0.08 * rng.next()) } });

  const motifs = {
    verse: makeMotif(rng.fork('verse'), style.lead.density, 0),
    chorus: makeMotif(rng.fork('chorus'), Math.min(0.9, style.lead.density + 0.15), 2),
    break: makeMotif(rng.fork('break'), style.lead.density * 0.6, 1),
  };
  const size = style.sevenths ? 4 : 3;

  plan.forEach((kind, bar) => {
    const chordIndex = Math.floor(bar / style.barsPerChord) % progression.length;
    const degree = progression[chordIndex] as number;
    const chord = voiced(chordNotes(root, mode, degree, size), root);
    const bassRoot = scaleNote(root - 24, mode, degree);
    const chordStart = bar % style.barsPerChord === 0;
    const bar0 = bar * barSeconds;
    const { chord: c, bass: b } = style;

    // Chords.
    if (c.style === 'sustain' && chordStart) {
      for (const m of chord)
        add('chords', c.inst, bar0, barSeconds * style.barsPerChord * 0.95, m, c.gain);
    } else if (c.style === 'stabs') {
      for (const step of [2, 6, 10, 14])
        for (const m of chord) add('chords', c.inst, at(bar, step), six * 1.4, m, c.gain);
    } else if (c.style === 'strum') {
      chord.forEach((m, i) => {
        add('chords', c.inst, bar0 + i * 0.018, beat * 2.2, m, c.gain);
        add('chords', c.inst, at(bar, 10) + i * 0.012, beat * 1.4, m, c.gain * 0.6);
      });
    } else if (c.style === 'fingerpick') {
      const pick = [0, 2, 1, 2, 3, 2, 1, 2];
      const tones = [...chord, (chord[0] as number) + 12];
      pick.forEach((p, i) =>
        add(
          'chords',
          c.inst,
          at(bar, i * 2),
          beat * 2,
          tones[p] as number,
          c.gain * (i === 0 ? 1 : 0.7),
        ),
      );
    } else if (c.style === 'arp16') {
      const tones = [...chord, (chord[0] as number) + 12];
      for (let step = 0; step < 16; step++) {
        const i = step % (tones.length * 2 - 2);
        const idx = i < tones.length ? i : tones.length * 2 - 2 - i;
        add('chords', c.inst, at(bar, step), six * 0.8, tones[idx] as number, c.gain);
      }
    }

    // Bass.
    if (kind === 'verse' || kind === 'chorus' || (kind === 'outro' && bar < bars - 2)) {
      if (b.style === 'eighths' || b.style === 'octaves') {
        for (let e = 0; e < 8; e++) {
          const midi = b.style === 'octaves' && e % 2 === 1 ? bassRoot + 12 : bassRoot;
          add('bass', b.inst, at(bar, e * 2), six * 1.7, midi, b.gain * (e % 2 === 0 ? 1 : 0.8));
        }
      } else if (b.style === 'offbeat') {
        for (const step of [2, 6, 10, 14])
          add('bass', b.inst, at(bar, step), six * 1.6, bassRoot, b.gain);
      } else if (b.style === 'root-fifth') {
        add('bass', b.inst, bar0, beat * 1.5, bassRoot, b.gain);
        add('bass', b.inst, at(bar, 8), beat * 1.5, bassRoot + 7, b.gain * 0.85);
        if (bar % 2 === 1) add('bass', b.inst, at(bar, 14), six * 2, bassRoot + 12, b.gain * 0.6);
      } else if (chordStart) {
        add('bass', b.inst, bar0, barSeconds * style.barsPerChord * 0.97, bassRoot, b.gain);
      }
    }

    // Arpeggio in the choruses.
    if (style.arp && kind === 'chorus') {
      const tones = chord.map((m) => m + 12);
      for (let step = 0; step < 16; step += 2) {
        add(
          'arp',
          style.arp.inst,
          at(bar, step),
          six * 1.5,
          tones[(step / 2) % tones.length] as number,
          style.arp.gain,
        );
      }
    }

    // Lead: one two-bar motif per section kind, repeated; the fourth phrase resolves home.
    if ((kind === 'verse' || kind === 'chorus' || kind === 'break') && isPhraseStart(plan, bar)) {
      const motif = motifs[kind];
      // The section's last phrase resolves to the tonic.
      const lastPhrase = plan[bar + 2] !== kind;
      if (kind !== 'break') phrases.push({ t: Math.round(bar0 * 100) / 100, kind });
      motif.forEach((m, i) => {
        const noteBar = bar + Math.floor(m.step / 16);
        if (noteBar >= bars) return;
        const chordDeg = progression[
          Math.floor(noteBar / style.barsPerChord) % progression.length
        ] as number;
        let degree = m.step % 8 === 0 ? snapToChord(m.degree, chordDeg) : m.degree;
        let len = m.len;
        if (lastPhrase && i === motif.length - 1) {
          degree = snapToChord(degree, 0);
          len = Math.max(len, 32 - m.step);
        }
        const midi = scaleNote(root + 12, mode, degree);
        add(
          'lead',
          style.lead.inst,
          at(noteBar, m.step % 16),
          six * len * 0.92,
          midi,
          style.lead.gain,
        );
      });
    }

    // Drums.
    const pattern =
      kind === 'verse' || kind === 'chorus'
        ? style.drums.full
        : kind === 'break'
          ? {}
          : style.drums.light;
    const fill = plan[bar + 1] === 'chorus' && kind !== 'chorus';
    for (const [drum, steps] of Object.entries(pattern) as [DrumId, string][]) {
      for (let step = 0; step < 16; step++) {
        const ch = steps[step];
        if (ch === 'x' || ch === 'o')
          hits.push({
            t: at(bar, step),
            drum,
            vel: (ch === 'x' ? 1 : 0.45) * (0.9 + 0.1 * rng.next()),
          });
      }
      if (
        fill &&
        (drum === 'snare' || drum === 'clap' || drum === 'chip-noise' || drum === 'rim')
      ) {
        for (const step of [13, 14, 15])
          hits.push({ t: at(bar, step), drum, vel: 0.5 + step * 0.02 });
      }
    }
  });
  return { style, bpm, mode, root, barSeconds, bars: plan, notes, hits, phrases };
}

function isPhraseStart(plan: SectionKind[], bar: number): boolean {
  return phraseOffset(plan, bar) % 2 === 0;
}

/** Bars since the current section started. */
function phraseOffset(plan: SectionKind[], bar: number): number {
  let start = bar;
  while (start > 0 && plan[start - 1] === plan[bar]) start--;
  return bar - start;
}
