/**
 * Separation quality on ground truth: the demo catalogue's songs rendered with their true stems
 * (server/seed/music/render.ts: vocals = the lead part, drums, bass, other = chords + arp + vinyl,
 * each with its own share of the effects; they sum to the mix), scored per stem with BSS Eval SDR
 * and SI-SDR (server/stems/metrics.ts: one-second windows, median per track, then the median over
 * the tracks, as SiSEC/MUSDB18 report), for the separator, the trivial baseline (every stem = the
 * mixture, scaled: both metrics ignore the scale) and the ideal ratio mask (oracle).
 */
import { buildCatalogue, type CatalogueTrack } from '../server/seed/catalogue';
import { AUDIO_FORMAT } from '../server/seed/mp3';
import { renderSong } from '../server/seed/music/render';
import { SdrWindow, median, scoreStem } from '../server/stems/metrics';
import { idealRatioMask } from '../server/stems/oracle';
import { STEM_NAMES, type StemName, type Stems } from '../server/stems/separate';

/** One track of each genre (the first in catalogue order), or every track with `all`. */
export function qualityTracks(all: boolean): CatalogueTrack[] {
  const tracks = buildCatalogue().tracks;
  if (all) return tracks;
  const seen = new Set<string>();
  return tracks.filter((t) => !seen.has(t.genre) && seen.add(t.genre));
}

export interface RenderedTruth {
  track: CatalogueTrack;
  mixture: Float32Array;
  truth: Record<StemName, Float32Array>;
}

export function renderTruth(track: CatalogueTrack): RenderedTruth {
  const song = renderSong(track.genre, track.seconds, track.seed, AUDIO_FORMAT.sampleRate, {
    stems: true,
  });
  // The seed's true stems have the separator's names (vocals, drums, bass, other).
  if (!song.stems) throw new Error('renderSong returned no stems');
  const truth: Record<StemName, Float32Array> = song.stems;
  return { track, mixture: song.samples, truth };
}

export type Method = (
  mixture: Float32Array,
  truth: Record<StemName, Float32Array>,
) => Promise<Stems>;

export const baseline: Method = async (mixture) => {
  const scaled = mixture.map((v) => v / STEM_NAMES.length);
  return Object.fromEntries(STEM_NAMES.map((n) => [n, { channels: [scaled] }])) as Stems;
};

export const oracle: Method = async (mixture, truth) => {
  const out = idealRatioMask(
    mixture,
    STEM_NAMES.map((n) => truth[n]),
  );
  return Object.fromEntries(STEM_NAMES.map((n, i) => [n, { channels: [out[i]] }])) as Stems;
};

export type StemTable = Record<StemName, { sdr: number; siSdr: number }>;

/** Scores each method over the songs: per stem, the median over tracks of the track medians. */
export async function scoreMethods(
  songs: RenderedTruth[],
  methods: Record<string, Method>,
): Promise<Record<string, StemTable>> {
  const rate = AUDIO_FORMAT.sampleRate;
  const window = new SdrWindow(rate);
  const perTrack: Record<string, Record<StemName, { sdr: number[]; siSdr: number[] }>> = {};
  for (const name of Object.keys(methods)) {
    perTrack[name] = Object.fromEntries(
      STEM_NAMES.map((n) => [n, { sdr: [], siSdr: [] }]),
    ) as unknown as Record<StemName, { sdr: number[]; siSdr: number[] }>;
  }
  for (const song of songs) {
    for (const [name, method] of Object.entries(methods)) {
      const stems = await method(song.mixture, song.truth);
      for (const stem of STEM_NAMES) {
        const estimate = stems[stem].channels[0] as Float32Array;
        const score = scoreStem(song.truth[stem], estimate, rate, window);
        const scores = (perTrack[name] as Record<StemName, { sdr: number[]; siSdr: number[] }>)[
          stem
        ];
        scores.sdr.push(score.sdr);
        scores.siSdr.push(score.siSdr);
      }
    }
  }
  return Object.fromEntries(
    Object.entries(perTrack).map(([name, stems]) => [
      name,
      Object.fromEntries(
        STEM_NAMES.map((n) => [
          n,
          {
            sdr: median(stems[n].sdr.filter(Number.isFinite)),
            siSdr: median(stems[n].siSdr.filter(Number.isFinite)),
          },
        ]),
      ) as StemTable,
    ]),
  );
}

/** Published SDR on MUSDB18 (real music, museval), for scale. */
export const ANCHORS: { name: string; sdr: Partial<Record<StemName, number>>; note?: string }[] = [
  { name: 'Spleeter 4-stems (MUSDB18)', sdr: { vocals: 6.9, drums: 6.7, bass: 5.5, other: 4.6 } },
  { name: 'Open-Unmix (MUSDB18)', sdr: { vocals: 6.3 } },
  { name: 'HPSS/REPET (MUSDB18)', sdr: {}, note: 'a few dB' },
];

export function printTable(tables: Record<string, StemTable>): void {
  const cell = (v: number | undefined) =>
    (v !== undefined && Number.isFinite(v) ? v.toFixed(1) : '–').padStart(6);
  const row = (name: string, cells: string[]) =>
    console.log(`  ${name.padEnd(36)}${cells.join('   ')}`);
  row(
    '',
    STEM_NAMES.map((n) => n.padStart(13)),
  );
  row(
    'method',
    STEM_NAMES.map(() => '   SDR SI-SDR'),
  );
  for (const [name, t] of Object.entries(tables)) {
    row(
      name,
      STEM_NAMES.map((n) => `${cell(t[n].sdr)} ${cell(t[n].siSdr)}`),
    );
  }
  for (const a of ANCHORS) {
    row(
      `${a.name}${a.note ? `: ${a.note}` : ''}`,
      STEM_NAMES.map((n) => `${cell(a.sdr[n])} ${''.padStart(6)}`),
    );
  }
}
