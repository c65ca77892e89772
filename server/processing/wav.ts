/**
 * A WAV reader for integer PCM and IEEE float (WAVE_FORMAT_PCM, _IEEE_FLOAT and EXTENSIBLE with
 * either subformat): RIFF chunks walked over the bytes, samples read with a DataView straight
 * into one Float32Array per channel. wavefile's `toBitDepth('32f')` took 137 s for a 5-minute
 * 16-bit stereo file on this machine (a JavaScript call per sample, through arrays of numbers);
 * this takes well under a second. Other encodings (A-law, µ-law, ADPCM) answer null and are left
 * to wavefile (decode.ts).
 */
export interface WavPcm {
  channelData: Float32Array[];
  sampleRate: number;
  length: number;
}

/** The header or the data chunk does not add up (a truncated or malformed file). */
export class WavUnreadable extends Error {}

const PCM = 1;
const IEEE_FLOAT = 3;
const EXTENSIBLE = 0xfffe;

const ascii = (bytes: Uint8Array, at: number) =>
  String.fromCharCode(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);

interface Format {
  tag: number;
  channels: number;
  sampleRate: number;
  blockAlign: number;
}

function readFormat(view: DataView, at: number, size: number): Format {
  if (size < 16) throw new WavUnreadable('fmt chunk too short');
  let tag = view.getUint16(at, true);
  // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the SubFormat GUID.
  if (tag === EXTENSIBLE && size >= 40) tag = view.getUint16(at + 24, true);
  return {
    tag,
    channels: view.getUint16(at + 2, true),
    sampleRate: view.getUint32(at + 4, true),
    blockAlign: view.getUint16(at + 12, true),
  };
}

/**
 * Float PCM of a WAV's data chunk; null when its encoding is not integer PCM or float. Throws
 * WavUnreadable when the data chunk declares more bytes than the file holds.
 */
export function decodeWavPcm(bytes: Uint8Array): WavPcm | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || ascii(bytes, 0) !== 'RIFF' || ascii(bytes, 8) !== 'WAVE')
    throw new WavUnreadable('not a RIFF WAVE file');
  let format: Format | null = null;
  let data: { at: number; size: number } | null = null;
  for (let at = 12; at + 8 <= bytes.length && !data;) {
    const id = ascii(bytes, at);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ') format = readFormat(view, at + 8, Math.min(size, bytes.length - at - 8));
    else if (id === 'data') data = { at: at + 8, size };
    at += 8 + size + (size % 2); // chunks are padded to an even size
  }
  if (!format || !data) throw new WavUnreadable('no fmt or data chunk');
  if (format.tag !== PCM && format.tag !== IEEE_FLOAT) return null;
  const { channels, blockAlign, sampleRate } = format;
  const width = channels > 0 ? blockAlign / channels : 0;
  const float = format.tag === IEEE_FLOAT;
  if (
    !sampleRate ||
    !Number.isInteger(width) ||
    !(float ? [4, 8] : [1, 2, 3, 4]).includes(width) ||
    data.at + data.size > bytes.length
  )
    throw new WavUnreadable('data chunk does not match its header');

  const length = Math.floor(data.size / blockAlign);
  const channelData = Array.from({ length: channels }, () => new Float32Array(length));
  for (let c = 0; c < channels; c++) {
    const out = channelData[c] as Float32Array;
    let at = data.at + c * width;
    // One loop per sample width, so that each stays monomorphic and fast.
    if (float && width === 4)
      for (let i = 0; i < length; i++, at += blockAlign) out[i] = view.getFloat32(at, true);
    else if (float)
      for (let i = 0; i < length; i++, at += blockAlign) out[i] = view.getFloat64(at, true);
    else if (width === 1)
      for (let i = 0; i < length; i++, at += blockAlign)
        out[i] = ((bytes[at] as number) - 128) / 128; // 8-bit WAV is unsigned
    else if (width === 2)
      for (let i = 0; i < length; i++, at += blockAlign) out[i] = view.getInt16(at, true) / 32768;
    else if (width === 3)
      for (let i = 0; i < length; i++, at += blockAlign)
        out[i] =
          (((bytes[at] as number) |
            ((bytes[at + 1] as number) << 8) |
            ((bytes[at + 2] as number) << 16)) <<
            8) /
          2147483648; // shifted into the top of an int32 to carry the sign
    else
      for (let i = 0; i < length; i++, at += blockAlign)
        out[i] = view.getInt32(at, true) / 2147483648;
  }
  return { channelData, sampleRate, length };
}
