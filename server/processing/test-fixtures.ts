/**
 * Audio files made at test time (and by the upload bench): a synthesised signal written as WAV
 * (wavefile), MP3 and Ogg Vorbis (LAME and libvorbis in WebAssembly) and FLAC (libFLAC, libflacjs).
 */
import { createRequire } from 'node:module';
import { createOggEncoder } from 'wasm-media-encoders';
import wavefile from 'wavefile';
import { encodeMp3 } from './encode-mp3';

export interface Signal {
  channelData: Float32Array[];
  sampleRate: number;
}

/** A chord with a beat: tones at `level` (peak, linear) plus a click every half second. */
export function synthSignal(
  seconds: number,
  {
    sampleRate = 44100,
    channels = 2,
    level = 0.25,
  }: Partial<{ sampleRate: number; channels: number; level: number }> = {},
): Signal {
  const frames = Math.round(seconds * sampleRate);
  const channelData = Array.from({ length: channels }, () => new Float32Array(frames));
  for (let i = 0; i < frames; i++) {
    const t = i / sampleRate;
    const beat = t % 0.5 < 0.01 ? Math.sin(2 * Math.PI * 90 * t) * 0.5 : 0;
    const tone =
      (Math.sin(2 * Math.PI * 220 * t) +
        Math.sin(2 * Math.PI * 277.18 * t) +
        Math.sin(2 * Math.PI * 329.63 * t)) /
      3;
    channelData.forEach((c, ch) => {
      c[i] = level * (0.8 * tone * (ch === 0 ? 1 : 0.9) + 0.2 * beat);
    });
  }
  return { channelData, sampleRate };
}

export function makeWav(
  { channelData, sampleRate }: Signal,
  bitDepth: '16' | '24' = '16',
): Uint8Array {
  const wav = new wavefile.WaveFile();
  const scale = bitDepth === '16' ? 32767 : 8388607;
  const ints = channelData.map((c) => Array.from(c, (v) => Math.round(v * scale)));
  wav.fromScratch(channelData.length, sampleRate, bitDepth, ints);
  return wav.toBuffer();
}

export async function makeMp3(signal: Signal, kbps: 128 | 320 = 320): Promise<Uint8Array> {
  return encodeMp3(signal.channelData, signal.sampleRate, kbps);
}

export async function makeOgg({ channelData, sampleRate }: Signal): Promise<Uint8Array> {
  const encoder = await createOggEncoder();
  encoder.configure({ sampleRate, channels: channelData.length >= 2 ? 2 : 1, vbrQuality: 4 });
  const parts = [encoder.encode(channelData.slice(0, 2)).slice(), encoder.finalize().slice()];
  return Buffer.concat(parts);
}

interface LibFlac {
  isReady(): boolean;
  on(event: 'ready', cb: () => void): void;
  create_libflac_encoder(
    rate: number,
    channels: number,
    bps: number,
    level: number,
    total: number,
    verify: boolean,
    block: number,
  ): number;
  init_encoder_stream(encoder: number, write: (data: Uint8Array) => void): number;
  FLAC__stream_encoder_process_interleaved(
    encoder: number,
    data: Int32Array,
    frames: number,
  ): boolean;
  FLAC__stream_encoder_finish(encoder: number): boolean;
  FLAC__stream_encoder_delete(encoder: number): void;
}

export async function makeFlac({ channelData, sampleRate }: Signal): Promise<Uint8Array> {
  const Flac = createRequire(import.meta.url)('libflacjs')() as LibFlac;
  if (!Flac.isReady()) await new Promise<void>((resolve) => Flac.on('ready', resolve));
  const channels = channelData.length;
  const frames = channelData[0]?.length ?? 0;
  const encoder = Flac.create_libflac_encoder(sampleRate, channels, 16, 5, frames, false, 0);
  const parts: Uint8Array[] = [];
  if (Flac.init_encoder_stream(encoder, (data) => parts.push(data.slice())) !== 0)
    throw new Error('libflac: init failed');
  const interleaved = new Int32Array(frames * channels);
  for (let i = 0; i < frames; i++)
    for (let ch = 0; ch < channels; ch++)
      interleaved[i * channels + ch] = Math.round((channelData[ch]?.[i] ?? 0) * 32767);
  if (!Flac.FLAC__stream_encoder_process_interleaved(encoder, interleaved, frames))
    throw new Error('libflac: encoding failed');
  Flac.FLAC__stream_encoder_finish(encoder);
  Flac.FLAC__stream_encoder_delete(encoder);
  return Buffer.concat(parts);
}
