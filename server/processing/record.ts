/**
 * What processing leaves behind, written the one way for uploads (jobs.ts) and for the demo
 * catalogue (server/seed): the renditions in the `renditions` bucket, the waveform peaks in
 * `track_waveforms`, and the measured columns of the track row with status 'ready'.
 */
import type { Queryable } from '../db/database';
import type { ProcessedAudio, Quality, Rendition } from './process-audio';

/** The qualities a processed track offers (tracks.qualities), lowest first. */
export function qualitiesOf(result: Pick<ProcessedAudio, 'high' | 'lossless'>): Quality[] {
  return [
    'standard',
    ...(result.high ? ['high' as const] : []),
    ...(result.lossless ? ['lossless' as const] : []),
  ];
}

export interface RenditionObject {
  bucket: 'renditions';
  /** `{trackId}/standard.mp3`, `{trackId}/high.mp3` */
  name: string;
  owner: string;
  bytes: Uint8Array;
  contentType: 'audio/mpeg';
}

/** The rendition objects of a processed track ('original' renditions are the original's bytes). */
export function renditionObjects(
  trackId: string,
  owner: string,
  renditions: { standard: Rendition; high: Rendition | null },
  original: Uint8Array,
): RenditionObject[] {
  const files: [string, Rendition | null][] = [
    ['standard.mp3', renditions.standard],
    ['high.mp3', renditions.high],
  ];
  return files.flatMap(([file, rendition]) =>
    rendition === null
      ? []
      : [
          {
            bucket: 'renditions' as const,
            name: `${trackId}/${file}`,
            owner,
            bytes: rendition === 'original' ? original : rendition,
            contentType: 'audio/mpeg' as const,
          },
        ],
  );
}

/** Stores the waveform and marks the track ready with what processing measured. */
export async function recordProcessed(
  tx: Queryable,
  trackId: string,
  result: Omit<ProcessedAudio, 'timings'>,
): Promise<void> {
  const p = result.peaks;
  await tx.query(
    `insert into public.track_waveforms
       (track_id, version, channels, sample_rate, samples_per_pixel, bits, length, data)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)
     on conflict (track_id) do update set version = excluded.version,
       channels = excluded.channels, sample_rate = excluded.sample_rate,
       samples_per_pixel = excluded.samples_per_pixel, bits = excluded.bits,
       length = excluded.length, data = excluded.data`,
    [
      trackId,
      p.version,
      p.channels,
      p.sample_rate,
      p.samples_per_pixel,
      p.bits,
      p.length,
      JSON.stringify(p.data),
    ],
  );
  await tx.query(
    `update public.tracks
        set status = 'ready', processing_stage = null, processing_progress = null,
            status_reason = null, duration = $2, sample_rate = $3, channels = $4,
            original_format = $5, loudness_lufs = $6, true_peak_db = $7, qualities = $8
      where id = $1`,
    [
      trackId,
      Math.max(1, Math.round(result.seconds)),
      result.sampleRate,
      result.channels,
      result.format,
      result.lufs,
      result.truePeakDb,
      qualitiesOf(result),
    ],
  );
}
