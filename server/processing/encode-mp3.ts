/**
 * MP3 renditions with LAME compiled to WebAssembly (wasm-media-encoders): constant bitrate,
 * the source's sample rate and up to two channels.
 */
import { createMp3Encoder } from 'wasm-media-encoders';

const BLOCK = 1152 * 128;
/** The rates we encode: the seed's originals (64) and the two renditions. */
export type Mp3Kbps = 64 | 128 | 320;
const MP3_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;

/** MP3 has nine sample rates; other sources (88.2, 96, 192 kHz...) are resampled by LAME. */
function outputRate(sampleRate: number): { outputSampleRate?: (typeof MP3_RATES)[number] } {
  if ((MP3_RATES as readonly number[]).includes(sampleRate)) return {};
  return { outputSampleRate: sampleRate % 11025 === 0 ? 44100 : 48000 };
}

/** 320 kbps exists for MPEG-1 layer III only: 32 kHz and above. */
export const MIN_RATE_FOR_320 = 32000;

export async function encodeMp3(
  channelData: Float32Array[],
  sampleRate: number,
  kbps: Mp3Kbps,
  onProgress: (fraction: number) => void = () => undefined,
): Promise<Uint8Array> {
  const encoder = await createMp3Encoder();
  const channels = channelData.length >= 2 ? 2 : 1;
  const input = channelData.slice(0, channels);
  encoder.configure({ sampleRate, channels, bitrate: kbps, ...outputRate(sampleRate) });
  const frames = input[0]?.length ?? 0;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const keep = (out: Uint8Array) => {
    if (out.length === 0) return;
    chunks.push(out.slice()); // the encoder reuses its output buffer
    size += out.length;
  };
  for (let offset = 0; offset < frames; offset += BLOCK) {
    keep(encoder.encode(input.map((c) => c.subarray(offset, Math.min(frames, offset + BLOCK)))));
    onProgress(Math.min(1, (offset + BLOCK) / frames));
  }
  keep(encoder.finalize());
  return Buffer.concat(chunks, size);
}
