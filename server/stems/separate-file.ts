/**
 * A stored audio file to four MP3 stems: decoded with the upload pipeline's decoders, separated,
 * each stem encoded as the standard rendition is (128 kbps MP3, the source's rate, stereo when
 * the source is). Runs inside the stems worker (all three steps are CPU work).
 */
import { decodeAudio } from '../processing/decode';
import { encodeMp3 } from '../processing/encode-mp3';
import { AudioRejected, UNREADABLE_AUDIO, type AudioFormat } from '../processing/inspect';
import { sniffContentType } from '../storage/sniff';
import { encodeOnWorker } from './on-worker';
import { STEM_NAMES, separate, type StemFiles, type StemName } from './separate';

export const STEM_KBPS = 128;

const FORMAT_OF_MIME: Record<string, AudioFormat> = {
  'audio/mpeg': 'mpeg',
  'audio/wav': 'wav',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
};

export interface SeparateFileOptions {
  /** Encodes stems elsewhere (default: on a helper worker); null encodes all four here. */
  helper?: typeof encodeOnWorker | null;
}

export async function separateFile(
  bytes: Uint8Array,
  onProgress: (fraction: number) => void = () => undefined,
  options: SeparateFileOptions = {},
): Promise<StemFiles> {
  const mime = sniffContentType(bytes);
  const format = mime ? FORMAT_OF_MIME[mime] : undefined;
  if (!format) throw new AudioRejected(UNREADABLE_AUDIO);
  let t = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = Math.round(now - t);
    t = now;
    return ms;
  };
  const decoded = await decodeAudio(bytes, format);
  const decode = lap();
  onProgress(0.05);
  // The separator takes mono or stereo; more channels are folded to their first two.
  const input = decoded.channelData.slice(0, 2);
  const stems = separate(input, decoded.sampleRate, {
    onProgress: (f) => onProgress(0.05 + 0.8 * f),
  });
  const separateMs = lap();
  // Half of the stems are encoded on a helper worker while this thread encodes the others (on a
  // single core, or in tests, `helper: null` encodes them all here).
  const files = {} as Record<StemName, Uint8Array>;
  const away: StemName[] = options.helper === null ? [] : ['bass', 'other'];
  const here = STEM_NAMES.filter((n) => !away.includes(n));
  const helper =
    away.length > 0
      ? (options.helper ?? encodeOnWorker)(
          away.map((n) => stems[n].channels),
          decoded.sampleRate,
          STEM_KBPS,
        )
      : Promise.resolve([]);
  for (const [i, name] of here.entries()) {
    files[name] = await encodeMp3(stems[name].channels, decoded.sampleRate, STEM_KBPS);
    onProgress(0.85 + (0.15 * (i + 1)) / STEM_NAMES.length);
  }
  (await helper).forEach((bytes, i) => (files[away[i] as StemName] = bytes));
  return {
    files,
    sampleRate: decoded.sampleRate,
    seconds: decoded.length / decoded.sampleRate,
    timings: { decode, separate: separateMs, encode: lap() },
  };
}
