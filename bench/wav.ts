/**
 * PCM WAVs (44.1 kHz, 16-bit, stereo by default) built in memory: a 44-byte RIFF/WAVE header
 * (fmt + data chunks) and the samples. `makeWav` is a file of an exact size (a quiet tone with
 * deterministic noise, so the server's byte sniffing sees `audio/wav` and the bytes do not
 * compress to nothing) for the storage bench; `wavOf` writes given channels (the upload bench).
 */
const HEADER_BYTES = 44;
const RATE = 44_100;
const CHANNELS = 2;
const BYTES_PER_SAMPLE = 2;
const BLOCK_ALIGN = CHANNELS * BYTES_PER_SAMPLE;

/** A file of `totalBytes` with its 16-bit PCM header written; the samples are left to the caller. */
function wavWithHeader(totalBytes: number, channels: number, rate: number) {
  const out = new Uint8Array(totalBytes);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  };
  const blockAlign = channels * BYTES_PER_SAMPLE;
  ascii(0, 'RIFF');
  view.setUint32(4, totalBytes - 8, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, channels, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * blockAlign, true); // byte rate
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, BYTES_PER_SAMPLE * 8, true);
  ascii(36, 'data');
  view.setUint32(40, totalBytes - HEADER_BYTES, true);
  return { out, view };
}

/** `totalBytes` (header included) must leave a data chunk of whole frames (4 bytes each). */
export function makeWav(totalBytes: number): Uint8Array<ArrayBuffer> {
  const dataBytes = totalBytes - HEADER_BYTES;
  if (dataBytes <= 0 || dataBytes % BLOCK_ALIGN !== 0)
    throw new Error(`a ${totalBytes}-byte WAV does not hold whole ${BLOCK_ALIGN}-byte frames`);
  const { out, view } = wavWithHeader(totalBytes, CHANNELS, RATE);
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

/** A 16-bit PCM WAV of float channels in [-1, 1] (clipped), interleaved. */
export function wavOf(channelData: Float32Array[], rate = RATE): Uint8Array<ArrayBuffer> {
  const channels = channelData.length;
  const frames = channelData[0]?.length ?? 0;
  const { out, view } = wavWithHeader(
    HEADER_BYTES + frames * channels * BYTES_PER_SAMPLE,
    channels,
    rate,
  );
  channelData.forEach((samples, c) => {
    for (let i = 0, at = HEADER_BYTES + c * BYTES_PER_SAMPLE; i < frames; i++) {
      const v = Math.max(-1, Math.min(1, samples[i] as number));
      view.setInt16(at, Math.round(v * 32767), true);
      at += channels * BYTES_PER_SAMPLE;
    }
  });
  return out;
}
