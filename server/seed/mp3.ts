/**
 * The format of the synthesised songs' MP3s (encoded by the upload pipeline's encoder, LAME in
 * WebAssembly: server/processing/encode-mp3.ts) and a frame parser used by the tests.
 */
import { encodeMp3 as encodeWithLame } from '../processing/encode-mp3';

/** 22.05 kHz mono at 64 kbps: fits first start in the time budget, plays everywhere. */
export const AUDIO_FORMAT = { sampleRate: 22050, kbps: 64, channels: 1 } as const;

/** Float samples in [-1, 1], mono → MP3 bytes (CBR, AUDIO_FORMAT). */
export function encodeMp3(samples: Float32Array): Promise<Uint8Array> {
  return encodeWithLame([samples], AUDIO_FORMAT.sampleRate, AUDIO_FORMAT.kbps);
}

export interface Mp3Info {
  frames: number;
  /** 1, 2 or 2.5 */
  version: 1 | 2 | 2.5;
  layer: 3;
  sampleRate: number;
  /** Bitrate of the first frame, kbps. */
  bitrateKbps: number;
  /** Every frame's bitrate equals the first (CBR). */
  constantBitrate: boolean;
  channels: 1 | 2;
  durationSeconds: number;
}

const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const RATES: Record<string, number[]> = {
  '1': [44100, 48000, 32000],
  '2': [22050, 24000, 16000],
  '2.5': [11025, 12000, 8000],
};

/** Walks every MPEG audio Layer III frame (after an optional ID3v2 tag); throws on garbage. */
export function parseMp3(bytes: Uint8Array): Mp3Info {
  let pos = 0;
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) {
    const size =
      (((bytes[6] as number) & 0x7f) << 21) |
      (((bytes[7] as number) & 0x7f) << 14) |
      (((bytes[8] as number) & 0x7f) << 7) |
      ((bytes[9] as number) & 0x7f);
    pos = 10 + size;
  }
  let frames = 0;
  let samples = 0;
  let first: Omit<Mp3Info, 'frames' | 'durationSeconds' | 'constantBitrate'> | null = null;
  let constantBitrate = true;
  while (pos + 4 <= bytes.length) {
    const b1 = bytes[pos + 1] as number;
    const b2 = bytes[pos + 2] as number;
    const b3 = bytes[pos + 3] as number;
    if (bytes[pos] !== 0xff || (b1 & 0xe0) !== 0xe0) {
      throw new Error(`no MPEG frame sync at byte ${pos}`);
    }
    const versionBits = (b1 >> 3) & 3;
    const layerBits = (b1 >> 1) & 3;
    if (versionBits === 1 || layerBits !== 1) throw new Error(`not MPEG Layer III at byte ${pos}`);
    const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
    const bitrate = (version === 1 ? BITRATES_V1 : BITRATES_V2)[(b2 >> 4) & 15];
    const sampleRate = RATES[String(version)]?.[(b2 >> 2) & 3];
    if (!bitrate || !sampleRate) throw new Error(`bad bitrate or sample rate at byte ${pos}`);
    const padding = (b2 >> 1) & 1;
    const perFrame = version === 1 ? 1152 : 576;
    const length = Math.floor(((perFrame / 8) * bitrate * 1000) / sampleRate) + padding;
    const channels = ((b3 >> 6) & 3) === 3 ? 1 : 2;
    if (!first) first = { version, layer: 3, sampleRate, bitrateKbps: bitrate, channels };
    else if (bitrate !== first.bitrateKbps) constantBitrate = false;
    frames++;
    samples += perFrame;
    pos += length;
  }
  if (!first || frames === 0) throw new Error('no MPEG frames');
  return { ...first, frames, constantBitrate, durationSeconds: samples / first.sampleRate };
}
