/**
 * A valid PCM WAV of an exact size, built in memory for the storage bench: a 44-byte RIFF/WAVE
 * header (fmt + data chunks; 44.1 kHz, 16-bit, stereo) and samples of a quiet tone with
 * deterministic noise, so the server's byte sniffing sees `audio/wav` and the bytes do not
 * compress to nothing.
 */
const HEADER_BYTES = 44;
const RATE = 44_100;
const CHANNELS = 2;
const BYTES_PER_SAMPLE = 2;
const BLOCK_ALIGN = CHANNELS * BYTES_PER_SAMPLE;

/** `totalBytes` (header included) must leave a data chunk of whole frames (4 bytes each). */
export function makeWav(totalBytes: number): Uint8Array<ArrayBuffer> {
  const dataBytes = totalBytes - HEADER_BYTES;
  if (dataBytes <= 0 || dataBytes % BLOCK_ALIGN !== 0)
    throw new Error(`a ${totalBytes}-byte WAV does not hold whole ${BLOCK_ALIGN}-byte frames`);
  const out = new Uint8Array(totalBytes);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, totalBytes - 8, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, CHANNELS, true);
  view.setUint32(24, RATE, true);
  view.setUint32(28, RATE * BLOCK_ALIGN, true); // byte rate
  view.setUint16(32, BLOCK_ALIGN, true);
  view.setUint16(34, BYTES_PER_SAMPLE * 8, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  // A 440 Hz tone at -20 dBFS plus xorshift noise, left and right slightly apart.
  let x = 0x9e3779b9;
  const step = (2 * Math.PI * 440) / RATE;
  for (let frame = 0, at = HEADER_BYTES; at < totalBytes; frame++, at += BLOCK_ALIGN) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const noise = ((x >>> 0) / 2 ** 32 - 0.5) * 600;
    const tone = Math.sin(frame * step) * 3276;
    view.setInt16(at, Math.round(tone + noise), true);
    view.setInt16(at + 2, Math.round(tone * 0.9 - noise), true);
  }
  return out;
}
