/**
 * The processing of one upload, start to end, on a worker thread: check what the bytes are,
 * decode them, measure peaks and loudness, and make the renditions the plans stream.
 * Rendition rules (docs/upload.md): never encode above the source (a lossy source at or below a
 * rendition's bitrate is that rendition as it is), 320 kbps only from 32 kHz up, lossless only
 * from a lossless original.
 */
import { decodeAudio } from './decode';
import { encodeMp3, MIN_RATE_FOR_320 } from './encode-mp3';
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
  /** Milliseconds per stage, for the bench and the logs. */
  timings: Record<string, number>;
}

/** Shortest upload accepted, in seconds. */
export const MIN_SECONDS = 0.5;

export async function processAudio(
  bytes: Uint8Array,
  onStage: (stage: Stage, progress: number | null) => void = () => undefined,
): Promise<ProcessedAudio> {
  const timings: Record<string, number> = {};
  let mark = performance.now();
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

  onStage('loudness', null);
  const { lufs, truePeakDb } = await measureLoudness(pcm.channelData, pcm.sampleRate);
  lap('loudness');

  onStage('encoding', 0);
  const lossySource = !info.lossless;
  const sourceKbps = info.bitrateKbps ?? Infinity;
  const mp3Source = info.format === 'mpeg';
  const wantHigh = pcm.sampleRate >= MIN_RATE_FOR_320 && (info.lossless || sourceKbps > 128);
  const encodeStandard = !(mp3Source && lossySource && sourceKbps <= 128);
  const encodeHigh = wantHigh && !(mp3Source && sourceKbps <= 320);
  const work = (encodeStandard ? 128 : 0) + (encodeHigh ? 320 : 0) || 1;
  let done = 0;
  const progress = (kbps: number) => (fraction: number) =>
    onStage('encoding', Math.min(1, (done + fraction * kbps) / work));
  const standard: Rendition = encodeStandard
    ? await encodeMp3(pcm.channelData, pcm.sampleRate, 128, progress(128))
    : 'original';
  done += encodeStandard ? 128 : 0;
  lap('standard');
  const high: Rendition | null = !wantHigh
    ? null
    : encodeHigh
      ? await encodeMp3(pcm.channelData, pcm.sampleRate, 320, progress(320))
      : 'original';
  lap('high');
  onStage('encoding', 1);

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
