/**
 * The WAV reader against wavefile (an independent implementation): every integer width and both
 * float widths, EXTENSIBLE headers, chunks before the data, and the files it must refuse or leave
 * to wavefile.
 */
import { describe, expect, it } from 'vitest';
import wavefile from 'wavefile';
import { decodeWavPcm, WavUnreadable } from './wav';
import { synthSignal } from './test-fixtures';

const signal = synthSignal(0.2, { sampleRate: 8000 });

/** A WAV written by wavefile at a bit depth ('8', '16', '24', '32', '32f', '64'). */
function wavefileWav(bitDepth: string, channels = signal.channelData): Uint8Array {
  const wav = new wavefile.WaveFile();
  const float = bitDepth === '32f' || bitDepth === '64';
  const bits = float ? 0 : Number(bitDepth);
  const samples = channels.map((c) =>
    Array.from(c, (v) =>
      float ? v : bits === 8 ? Math.round(v * 127) + 128 : Math.round(v * (2 ** (bits - 1) - 1)),
    ),
  );
  wav.fromScratch(channels.length, 8000, bitDepth, samples);
  return wav.toBuffer();
}

/** What wavefile itself decodes the file to (its own int-to-float scaling). */
function wavefileDecode(bytes: Uint8Array): Float32Array[] {
  const wav = new wavefile.WaveFile();
  wav.fromBuffer(bytes);
  if (wav.bitDepth !== '32f') wav.toBitDepth('32f');
  const s = wav.getSamples(false, Float32Array) as unknown as Float32Array[] | Float32Array;
  return Array.isArray(s) ? s : [s];
}

function expectClose(actual: Float32Array[], expected: Float32Array[], tolerance: number) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((channel, c) => {
    const reference = expected[c] as Float32Array;
    expect(channel).toHaveLength(reference.length);
    let worst = 0;
    for (let i = 0; i < channel.length; i++)
      worst = Math.max(worst, Math.abs((channel[i] as number) - (reference[i] as number)));
    expect(worst).toBeLessThanOrEqual(tolerance);
  });
}

/** Inserts a chunk (odd size: one pad byte follows it) between the fmt and data chunks. */
function withChunkBeforeData(bytes: Uint8Array, id: string, body: Uint8Array): Uint8Array {
  const dataAt = Buffer.from(bytes).indexOf('data', 12, 'latin1');
  const chunk = Buffer.alloc(8 + body.length + (body.length % 2));
  chunk.write(id, 0, 'latin1');
  chunk.writeUInt32LE(body.length, 4);
  chunk.set(body, 8);
  const out = Buffer.concat([bytes.subarray(0, dataAt), chunk, bytes.subarray(dataAt)]);
  out.writeUInt32LE(out.length - 8, 4);
  return out;
}

describe('decodeWavPcm', () => {
  it.each([
    ['8', 1 / 64],
    ['16', 1 / 16384],
    ['24', 1 / 2 ** 22],
    ['32', 1 / 2 ** 30],
    ['32f', 0],
    ['64', 1e-7],
  ])('reads %s-bit samples as wavefile does', (bitDepth, tolerance) => {
    const bytes = wavefileWav(bitDepth);
    const pcm = decodeWavPcm(bytes);
    expect(pcm).toMatchObject({ sampleRate: 8000, length: 1600 });
    expectClose(pcm?.channelData ?? [], wavefileDecode(bytes), tolerance);
    // And the signal itself, within the format's resolution.
    expectClose(pcm?.channelData ?? [], signal.channelData, bitDepth === '8' ? 1 / 60 : 1e-4);
  });

  it('reads mono, a WAVE_FORMAT_EXTENSIBLE header and skips an odd-sized chunk before the data', () => {
    const mono = wavefileWav('16', signal.channelData.slice(0, 1));
    expect(decodeWavPcm(mono)?.channelData).toHaveLength(1);

    // The 16-bit stereo file with its fmt chunk rewritten as EXTENSIBLE (40 bytes, PCM GUID).
    const plain = Buffer.from(wavefileWav('16'));
    const fmt = plain.subarray(20, 36);
    const ext = Buffer.alloc(40);
    fmt.copy(ext);
    ext.writeUInt16LE(0xfffe, 0);
    ext.writeUInt16LE(22, 16); // cbSize
    ext.writeUInt16LE(16, 18); // valid bits
    ext.writeUInt32LE(3, 20); // channel mask: front left, front right
    Buffer.from('0100000000001000800000aa00389b71', 'hex').copy(ext, 24); // KSDATAFORMAT_SUBTYPE_PCM
    const header = Buffer.alloc(8);
    header.write('fmt ', 0, 'latin1');
    header.writeUInt32LE(40, 4);
    const extensible = Buffer.concat([plain.subarray(0, 12), header, ext, plain.subarray(36)]);
    extensible.writeUInt32LE(extensible.length - 8, 4);
    const withList = withChunkBeforeData(extensible, 'LIST', new Uint8Array(13).fill(7));
    expectClose(
      decodeWavPcm(withList)?.channelData ?? [],
      decodeWavPcm(plain)?.channelData ?? [],
      0,
    );
    expect(decodeWavPcm(withList)?.length).toBe(1600);
  });

  it('refuses a data chunk that declares more than the file holds, or no data chunk', () => {
    const bytes = wavefileWav('16');
    expect(() => decodeWavPcm(bytes.subarray(0, bytes.length - 1))).toThrow(WavUnreadable);
    expect(() => decodeWavPcm(bytes.subarray(0, 36))).toThrow(WavUnreadable);
    expect(() => decodeWavPcm(new TextEncoder().encode('RIFF....WAVEjunk'))).toThrow(WavUnreadable);
  });

  it('leaves A-law to wavefile (answers null)', () => {
    const wav = new wavefile.WaveFile();
    wav.fromBuffer(wavefileWav('16'));
    wav.toALaw();
    expect(decodeWavPcm(wav.toBuffer())).toBeNull();
  });
});
