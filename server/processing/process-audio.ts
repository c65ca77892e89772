/**
 * The processing of one upload, start to end, on a worker thread: check what the bytes are,
 * decode them, measure peaks and loudness, and make the renditions the plans stream.
 * Rendition rules (docs/upload.md): never encode above the source (a lossy source at or below a
 * rendition's bitrate is that rendition as it is), 320 kbps only from 32 kHz up, lossless only
 * from a lossless original.
 */
import { decodeAudio } from './decode';
import { encodeMp3, MIN_RATE_FOR_320 } from './encode-mp3';
import { encodeMp3Elsewhere, shareChannels } from './encode-elsewhere';
import { AudioRejected, inspectAudio, UNREADABLE_AUDIO, type AudioFormat } from './inspect';
import { measureLoudness } from './loudness';
import { computePeaks, type WaveformPeaks } from './peaks';

export type Stage = 'checking' | 'decoding' | 'waveform' | 'loudness' | 'encoding';
export type Quality = 'standard' | 'high' | 'lossless';

/** An MP3 rendition: new bytes, or the original file as it is. */
export type Rendition = Uint8Array | 'original';

export interface ProcessedAudio {
  format: AudioFormat;
  seconds: number;
  sampleRate: number;
  channels: number;
  lufs: number | null;
  truePeakDb: number | null;
  peaks: WaveformPeaks;
  standard: Rendition;
  high: Rendition | null;
  /** The original is lossless (WAV, FLAC): premium streams it. */
  lossless: boolean;
  /**
   * Milliseconds, for the bench and the logs: checking, decoding, waveform, loudness in turn;
   * standard and high, each encode's own time (they overlap: one runs on a helper thread beside
   * loudness and the other); encoding, from the end of loudness to the last rendition; total.
   */
  timings: Record<string, number>;
}

/** Shortest upload accepted, in seconds. */
export const MIN_SECONDS = 0.5;

export async function processAudio(
  bytes: Uint8Array,
  onStage: (stage: Stage, progress: number | null) => void = () => undefined,
): Promise<ProcessedAudio> {
  const timings: Record<string, number> = {};
  const started = performance.now();
  let mark = started;
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark);
    mark = now;
  };

  onStage('checking', null);
  const info = await inspectAudio(bytes);
  lap('checking');

  onStage('decoding', null);
  const decoded = await decodeAudio(bytes, info.format);
  // mpg123 puts out two channels for a mono MP3 (the same samples twice): keep what the file
  // holds, or its loudness measures 3 dB high and its renditions turn stereo.
  const pcm =
    info.channels !== null && decoded.channelData.length > info.channels
      ? { ...decoded, channelData: decoded.channelData.slice(0, info.channels) }
      : decoded;
  const seconds = pcm.length / pcm.sampleRate;
  if (seconds < MIN_SECONDS) throw new AudioRejected(UNREADABLE_AUDIO);
  // A header that promises more than the data holds: a truncated file.
  if (
    info.declaredSeconds !== null &&
    info.declaredSeconds - seconds > Math.max(0.5, seconds * 0.01)
  )
    throw new AudioRejected(UNREADABLE_AUDIO);
  lap('decoding');

  onStage('waveform', null);
  const peaks = computePeaks(pcm.channelData, pcm.sampleRate);
  lap('waveform');

  const lossySource = !info.lossless;
  const sourceKbps = info.bitrateKbps ?? Infinity;
  const mp3Source = info.format === 'mpeg';
  const wantHigh = pcm.sampleRate >= MIN_RATE_FOR_320 && (info.lossless || sourceKbps > 128);
  const encodeStandard = !(mp3Source && lossySource && sourceKbps <= 128);
  const encodeHigh = wantHigh && !(mp3Source && sourceKbps <= 320);

  // Two cores per upload: the longest encode (320 kbps, else 128) runs on a helper thread from
  // shared PCM while this thread measures loudness and encodes the other rendition.
  const channels = encodeStandard || encodeHigh ? shareChannels(pcm.channelData) : pcm.channelData;
  const fractions = { standard: 0, high: 0 };
  const work = (encodeStandard ? 128 : 0) + (encodeHigh ? 320 : 0) || 1;
  let encodingStarted = false;
  const progress = (which: 'standard' | 'high') => (fraction: number) => {
    fractions[which] = fraction;
    if (encodingStarted)
      onStage('encoding', Math.min(1, (fractions.standard * 128 + fractions.high * 320) / work));
  };
  const encodeStarted = performance.now();
  const timed = (name: 'standard' | 'high', encoding: Promise<Uint8Array>) =>
    encoding.then((bytes) => {
      timings[name] = Math.round(performance.now() - encodeStarted);
      return bytes;
    });
  const elsewhere: Promise<Uint8Array> | null = encodeHigh
    ? timed('high', encodeMp3Elsewhere(channels, pcm.sampleRate, 320, progress('high')))
    : encodeStandard
      ? timed('standard', encodeMp3Elsewhere(channels, pcm.sampleRate, 128, progress('standard')))
      : null;
  // Settle the helper's promise even if this thread fails first (no unhandled rejection).
  elsewhere?.catch(() => undefined);

  onStage('loudness', null);
  const { lufs, truePeakDb } = await measureLoudness(channels, pcm.sampleRate);
  lap('loudness');

  onStage('encoding', 0);
  encodingStarted = true;
  let standard: Rendition = 'original';
  let high: Rendition | null = wantHigh ? 'original' : null;
  if (encodeHigh) {
    if (encodeStandard) {
      const t0 = performance.now();
      standard = await encodeMp3(channels, pcm.sampleRate, 128, progress('standard'));
      timings.standard = Math.round(performance.now() - t0);
    }
    high = await (elsewhere as Promise<Uint8Array>);
  } else if (encodeStandard) {
    standard = await (elsewhere as Promise<Uint8Array>);
  }
  onStage('encoding', 1);
  timings.encoding = Math.round(performance.now() - mark);
  timings.total = Math.round(performance.now() - started);

  return {
    format: info.format,
    seconds,
    sampleRate: pcm.sampleRate,
    channels: pcm.channelData.length,
    lufs,
    truePeakDb,
    peaks,
    standard,
    high,
    lossless: info.lossless,
    timings,
  };
}
