/**
 * Music theory (modes, diatonic chords) and the style of each demo genre: tempo, harmony,
 * instruments, rhythm patterns and mix.
 */
import type { DrumId } from './drums';
import type { InstrumentId } from './instruments';

export type Mode = 'major' | 'minor' | 'dorian' | 'mixolydian' | 'lydian';

const MODES: Record<Mode, readonly number[]> = {
  major: [0, 2, 4, 5, 7, 9, 11],
  minor: [0, 2, 3, 5, 7, 8, 10],
  dorian: [0, 2, 3, 5, 7, 9, 10],
  mixolydian: [0, 2, 4, 5, 7, 9, 10],
  lydian: [0, 2, 4, 6, 7, 9, 11],
};

/** The MIDI note of scale `degree` (any integer; 7 = an octave up) above `root`. */
export function scaleNote(root: number, mode: Mode, degree: number): number {
  const steps = MODES[mode];
  const octave = Math.floor(degree / 7);
  const index = ((degree % 7) + 7) % 7;
  return root + octave * 12 + (steps[index] as number);
}

/** A diatonic chord (triad or seventh) on `degree`, as MIDI notes. */
export function chordNotes(root: number, mode: Mode, degree: number, size: 3 | 4): number[] {
  return Array.from({ length: size }, (_, i) => scaleNote(root, mode, degree + 2 * i));
}

export type GenreId = 'synthwave' | 'lofi' | 'ambient' | 'house' | 'folk' | 'dnb' | 'chiptune';

export type ChordStyle = 'sustain' | 'stabs' | 'strum' | 'fingerpick' | 'arp16';
export type BassStyle = 'eighths' | 'offbeat' | 'root-fifth' | 'long' | 'octaves';

export interface GenreStyle {
  id: GenreId;
  /** The value stored in tracks.genre. */
  label: string;
  bpm: [number, number];
  modes: Mode[];
  /** Chord progressions as scale degrees (0 = tonic). */
  progressions: number[][];
  barsPerChord: 1 | 2;
  sevenths: boolean;
  /** Tonic range (MIDI) of the chords; bass plays two octaves lower, lead one higher. */
  rootRange: [number, number];
  chord: { inst: InstrumentId; style: ChordStyle; gain: number };
  bass: { inst: InstrumentId; style: BassStyle; gain: number };
  lead: { inst: InstrumentId; gain: number; density: number };
  arp: { inst: InstrumentId; gain: number } | null;
  /** 16 steps per bar: 'x' hit, 'o' ghost, '.' rest. `full` in main sections, `light` in intros. */
  drums: { full: Partial<Record<DrumId, string>>; light: Partial<Record<DrumId, string>> };
  drumGain: number;
  /** Delay of odd 16th notes, as a fraction of a 16th. */
  swing: number;
  /** Sidechain ducking depth of chords and bass by the kick (0 = none). */
  duck: number;
  reverb: { room: number; damp: number; wet: number };
  /** Lead delay in beats (0.75 = dotted eighth). */
  delay: { beats: number; feedback: number; wet: number };
  vinyl: number;
  /** Master low-pass cutoff in Hz (0 = none). */
  tone: number;
}

const FOUR = 'x...x...x...x...';
const BACKBEAT = '....x.......x...';
const EIGHTHS = 'x.x.x.x.x.x.x.x.';

export const GENRES: Record<GenreId, GenreStyle> = {
  synthwave: {
    id: 'synthwave',
    label: 'Synthwave',
    bpm: [92, 108],
    modes: ['minor'],
    progressions: [
      [0, 5, 2, 6],
      [0, 5, 3, 4],
      [0, 3, 5, 6],
    ],
    barsPerChord: 1,
    sevenths: false,
    rootRange: [55, 62],
    chord: { inst: 'pad', style: 'sustain', gain: 0.22 },
    bass: { inst: 'saw-bass', style: 'eighths', gain: 0.34 },
    lead: { inst: 'saw-lead', gain: 0.2, density: 0.55 },
    arp: { inst: 'pluck', gain: 0.22 },
    drums: { full: { kick: FOUR, snare: BACKBEAT, hat: EIGHTHS }, light: { hat: EIGHTHS } },
    drumGain: 0.8,
    swing: 0,
    duck: 0.45,
    reverb: { room: 0.85, damp: 0.4, wet: 0.5 },
    delay: { beats: 0.75, feedback: 0.4, wet: 0.3 },
    vinyl: 0,
    tone: 0,
  },
  lofi: {
    id: 'lofi',
    label: 'Lo-fi',
    bpm: [72, 86],
    modes: ['major', 'dorian'],
    progressions: [
      [1, 4, 0, 5],
      [0, 5, 1, 4],
      [3, 2, 1, 0],
    ],
    barsPerChord: 1,
    sevenths: true,
    rootRange: [53, 60],
    chord: { inst: 'epiano', style: 'strum', gain: 0.3 },
    bass: { inst: 'sub-bass', style: 'root-fifth', gain: 0.38 },
    lead: { inst: 'bell', gain: 0.12, density: 0.35 },
    arp: null,
    drums: {
      full: { kick: 'x......x..x.....', snare: BACKBEAT, hat: 'x.x.x.x.x.x.x.xo' },
      light: { hat: 'x...x...x...x...' },
    },
    drumGain: 0.75,
    swing: 0.33,
    duck: 0,
    reverb: { room: 0.6, damp: 0.6, wet: 0.3 },
    delay: { beats: 0.5, feedback: 0.3, wet: 0.2 },
    vinyl: 0.6,
    tone: 4200,
  },
  ambient: {
    id: 'ambient',
    label: 'Ambient',
    bpm: [60, 70],
    modes: ['lydian', 'major'],
    progressions: [
      [0, 4, 5, 3],
      [0, 1, 5, 4],
    ],
    barsPerChord: 2,
    sevenths: true,
    rootRange: [52, 59],
    chord: { inst: 'warm-pad', style: 'sustain', gain: 0.28 },
    bass: { inst: 'sub-bass', style: 'long', gain: 0.22 },
    lead: { inst: 'bell', gain: 0.14, density: 0.22 },
    arp: { inst: 'pluck', gain: 0.1 },
    drums: { full: { shaker: 'x...x...x...x.x.' }, light: {} },
    drumGain: 0.35,
    swing: 0,
    duck: 0,
    reverb: { room: 0.95, damp: 0.3, wet: 0.75 },
    delay: { beats: 1.5, feedback: 0.5, wet: 0.35 },
    vinyl: 0,
    tone: 0,
  },
  house: {
    id: 'house',
    label: 'House',
    bpm: [120, 124],
    modes: ['minor', 'dorian'],
    progressions: [
      [0, 6, 5, 6],
      [0, 3, 6, 4],
      [0, 0, 5, 6],
    ],
    barsPerChord: 1,
    sevenths: true,
    rootRange: [57, 63],
    chord: { inst: 'organ', style: 'stabs', gain: 0.2 },
    bass: { inst: 'saw-bass', style: 'offbeat', gain: 0.36 },
    lead: { inst: 'pluck', gain: 0.24, density: 0.45 },
    arp: null,
    drums: {
      full: { kick: FOUR, clap: BACKBEAT, 'open-hat': '..x...x...x...x.', hat: 'oooooooooooooooo' },
      light: { kick: FOUR, hat: '..x...x...x...x.' },
    },
    drumGain: 0.85,
    swing: 0.12,
    duck: 0.55,
    reverb: { room: 0.55, damp: 0.5, wet: 0.22 },
    delay: { beats: 0.75, feedback: 0.35, wet: 0.22 },
    vinyl: 0,
    tone: 0,
  },
  folk: {
    id: 'folk',
    label: 'Folk',
    bpm: [92, 108],
    modes: ['major', 'mixolydian'],
    progressions: [
      [0, 4, 5, 3],
      [0, 3, 0, 4],
      [5, 3, 0, 4],
    ],
    barsPerChord: 1,
    sevenths: false,
    rootRange: [52, 59],
    chord: { inst: 'pluck', style: 'fingerpick', gain: 0.3 },
    bass: { inst: 'pluck-bass', style: 'root-fifth', gain: 0.42 },
    lead: { inst: 'pluck', gain: 0.3, density: 0.5 },
    arp: null,
    drums: {
      full: { kick: 'x.......x.......', rim: BACKBEAT, shaker: EIGHTHS },
      light: { shaker: EIGHTHS },
    },
    drumGain: 0.6,
    swing: 0.08,
    duck: 0,
    reverb: { room: 0.7, damp: 0.5, wet: 0.35 },
    delay: { beats: 0.5, feedback: 0.2, wet: 0.1 },
    vinyl: 0,
    tone: 0,
  },
  dnb: {
    id: 'dnb',
    label: 'Drum & Bass',
    bpm: [170, 174],
    modes: ['minor'],
    progressions: [
      [0, 5, 3, 4],
      [0, 2, 5, 6],
    ],
    barsPerChord: 2,
    sevenths: true,
    rootRange: [55, 61],
    chord: { inst: 'pad', style: 'sustain', gain: 0.18 },
    bass: { inst: 'reese', style: 'long', gain: 0.4 },
    lead: { inst: 'bell', gain: 0.13, density: 0.3 },
    arp: null,
    drums: {
      full: { kick: 'x.........x.....', snare: '....x..o.o..x...', hat: 'x.xxx.x.x.xxx.xo' },
      light: { hat: EIGHTHS },
    },
    drumGain: 0.85,
    swing: 0,
    duck: 0.3,
    reverb: { room: 0.7, damp: 0.45, wet: 0.35 },
    delay: { beats: 0.75, feedback: 0.45, wet: 0.25 },
    vinyl: 0,
    tone: 0,
  },
  chiptune: {
    id: 'chiptune',
    label: 'Chiptune',
    bpm: [128, 148],
    modes: ['major', 'minor'],
    progressions: [
      [0, 4, 5, 3],
      [0, 5, 3, 4],
    ],
    barsPerChord: 1,
    sevenths: false,
    rootRange: [57, 64],
    chord: { inst: 'chip-lead', style: 'arp16', gain: 0.12 },
    bass: { inst: 'chip-bass', style: 'octaves', gain: 0.22 },
    lead: { inst: 'chip-lead', gain: 0.2, density: 0.6 },
    arp: null,
    drums: {
      full: { kick: 'x.......x.x.....', 'chip-noise': '....x.......x...', hat: EIGHTHS },
      light: { hat: EIGHTHS },
    },
    drumGain: 0.7,
    swing: 0,
    duck: 0,
    reverb: { room: 0.3, damp: 0.6, wet: 0.1 },
    delay: { beats: 0.75, feedback: 0.25, wet: 0.12 },
    vinyl: 0,
    tone: 0,
  },
};
