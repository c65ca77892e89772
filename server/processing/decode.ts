/**
 * Decodes an upload to float PCM with decoders compiled to WebAssembly (mpg123, libFLAC,
 * libvorbis from @wasm-audio-decoders) and wavefile for WAV: nothing outside npm.
 */
import { FLACDecoder } from '@wasm-audio-decoders/flac';
import { OggVorbisDecoder } from '@wasm-audio-decoders/ogg-vorbis';
import { MPEGDecoder } from 'mpg123-decoder';
import wavefile from 'wavefile';
import { AudioRejected, UNREADABLE_AUDIO, type AudioFormat } from './inspect';

export interface DecodedAudio {
  channelData: Float32Array[];
  sampleRate: number;
  /** Frames (samples per channel). */
  length: number;
}

function fromWav(bytes: Uint8Array): DecodedAudio {
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

export async function decodeAudio(bytes: Uint8Array, format: AudioFormat): Promise<DecodedAudio> {
  try {
    switch (format) {
      case 'wav':
        return fromWav(bytes);
      case 'mpeg': {
        const decoder = new MPEGDecoder();
        await decoder.ready;
        try {
          return fromWasm(decoder.decode(bytes));
        } finally {
          decoder.free();
        }
      }
      case 'flac': {
        const decoder = new FLACDecoder();
        await decoder.ready;
        try {
          return fromWasm(await decoder.decodeFile(bytes));
        } finally {
          decoder.free();
        }
      }
      case 'ogg': {
        const decoder = new OggVorbisDecoder();
        await decoder.ready;
        try {
          return fromWasm(await decoder.decodeFile(bytes));
        } finally {
          decoder.free();
        }
      }
    }
  } catch (error) {
    if (error instanceof AudioRejected) throw error;
    throw new AudioRejected(UNREADABLE_AUDIO);
  }
}
