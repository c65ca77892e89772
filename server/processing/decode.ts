/**
 * Decodes an upload to float PCM with decoders compiled to WebAssembly (mpg123, libFLAC,
 * libvorbis, libopus from @wasm-audio-decoders), our own reader for PCM and float WAV (wav.ts) and
 * wavefile for the other WAV encodings: nothing outside npm.
 */
import { FLACDecoder } from '@wasm-audio-decoders/flac';
import { OggVorbisDecoder } from '@wasm-audio-decoders/ogg-vorbis';
import { MPEGDecoder } from 'mpg123-decoder';
import { OggOpusDecoder } from 'ogg-opus-decoder';
import wavefile from 'wavefile';
import { AudioRejected, UNREADABLE_AUDIO, type AudioFormat } from './inspect';
import { decodeWavPcm, WavUnreadable } from './wav';

export interface DecodedAudio {
  channelData: Float32Array[];
  sampleRate: number;
  /** Frames (samples per channel). */
  length: number;
}

function fromWav(bytes: Uint8Array): DecodedAudio {
  try {
    const pcm = decodeWavPcm(bytes);
    if (pcm) return pcm;
  } catch (error) {
    if (error instanceof WavUnreadable) throw new AudioRejected(UNREADABLE_AUDIO);
    throw error;
  }
  // A-law, µ-law, ADPCM: wavefile's converters (slow, but these are rare and small).
  const wav = new wavefile.WaveFile();
  wav.fromBuffer(bytes);
  const fmt = wav.fmt as { sampleRate: number; numChannels: number; bitsPerSample: number };
  const data = wav.data as { chunkSize: number };
  const sampleRate = fmt.sampleRate; // read before toBitDepth, which rebuilds the header
  const bytesPerFrame = (fmt.numChannels * fmt.bitsPerSample) / 8;
  // A data chunk that declares more than the file holds: truncated.
  if (!bytesPerFrame || data.chunkSize > bytes.length) throw new AudioRejected(UNREADABLE_AUDIO);
  if (wav.bitDepth !== '32f') wav.toBitDepth('32f');
  const samples = wav.getSamples(false, Float32Array) as unknown as Float32Array[] | Float32Array;
  const channelData = Array.isArray(samples) ? samples : [samples];
  return { channelData, sampleRate, length: channelData[0]?.length ?? 0 };
}

interface WasmResult {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
  errors: unknown[];
}

function fromWasm(result: WasmResult): DecodedAudio {
  if (result.errors.length > 0 || result.samplesDecoded === 0 || !result.sampleRate)
    throw new AudioRejected(UNREADABLE_AUDIO);
  return {
    channelData: result.channelData.map((c) => c.subarray(0, result.samplesDecoded)),
    sampleRate: result.sampleRate,
    length: result.samplesDecoded,
  };
}

/**
 * Ogg holds Vorbis or Opus: an Opus stream's first packet is its 'OpusHead' header (RFC 7845),
 * on the first page, after the 27-byte page header and the segment table.
 */
export function isOggOpus(bytes: Uint8Array): boolean {
  const segments = bytes[26] ?? 0;
  const start = 27 + segments;
  return Buffer.from(bytes.subarray(start, start + 8)).toString('latin1') === 'OpusHead';
}

/**
 * Whether an Ogg file is whole: its pages (RFC 3533: 'OggS', flags at byte 5, the segment table
 * from byte 27) follow each other to the last byte, and the last one carries the end-of-stream
 * flag. A truncated file ends inside a page or without it; the decoders play what is there.
 */
export function isWholeOgg(bytes: Uint8Array): boolean {
  let pos = 0;
  let flags = 0;
  while (pos + 27 <= bytes.length) {
    if (
      bytes[pos] !== 0x4f ||
      bytes[pos + 1] !== 0x67 ||
      bytes[pos + 2] !== 0x67 ||
      bytes[pos + 3] !== 0x53
    )
      return false;
    flags = bytes[pos + 5] ?? 0;
    const segments = bytes[pos + 26] ?? 0;
    let size = 27 + segments;
    for (let i = 0; i < segments; i++) size += bytes[pos + 27 + i] ?? 0;
    pos += size;
  }
  return pos === bytes.length && (flags & 0x04) !== 0;
}

interface WasmDecoder {
  ready: Promise<void>;
  decodeFile(bytes: Uint8Array): Promise<WasmResult>;
  free(): void;
}

/** Decodes a whole file with a WebAssembly decoder, and frees its memory whatever happens. */
async function decodeWith(decoder: WasmDecoder, bytes: Uint8Array): Promise<DecodedAudio> {
  await decoder.ready;
  try {
    return fromWasm(await decoder.decodeFile(bytes));
  } finally {
    decoder.free();
  }
}

export async function decodeAudio(bytes: Uint8Array, format: AudioFormat): Promise<DecodedAudio> {
  try {
    switch (format) {
      case 'wav':
        return fromWav(bytes);
      case 'mpeg': {
        // mpg123-decoder has no decodeFile: one decode() call takes the whole file.
        const decoder = new MPEGDecoder();
        return await decodeWith(
          {
            ready: decoder.ready,
            decodeFile: async (b) => decoder.decode(b),
            free: () => decoder.free(),
          },
          bytes,
        );
      }
      case 'flac':
        return await decodeWith(new FLACDecoder(), bytes);
      case 'ogg':
        if (!isWholeOgg(bytes)) throw new AudioRejected(UNREADABLE_AUDIO);
        return await decodeWith(
          isOggOpus(bytes) ? new OggOpusDecoder() : new OggVorbisDecoder(),
          bytes,
        );
    }
  } catch (error) {
    if (error instanceof AudioRejected) throw error;
    throw new AudioRejected(UNREADABLE_AUDIO);
  }
}
