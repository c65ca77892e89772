/** Tiny but real files of each format, and the hostile ones, for storage tests. */

/** An MPEG-1 Layer III stream: `frames` frames of 128 kbps at 44.1 kHz (417 bytes each). */
export function mp3Bytes(frames = 4, withId3 = false): Uint8Array<ArrayBuffer> {
  const frame = new Uint8Array(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  const id3 = withId3 ? [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0] : [];
  const out = new Uint8Array(id3.length + frames * frame.length);
  out.set(id3);
  for (let i = 0; i < frames; i++) out.set(frame, id3.length + i * frame.length);
  return out;
}

export function wavBytes(dataBytes = 64): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(44 + dataBytes);
  const view = new DataView(out.buffer);
  const text = (at: number, s: string) =>
    [...s].forEach((ch, i) => (out[at + i] = ch.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  text(8, 'WAVEfmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 8000, true);
  view.setUint32(28, 16000, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let i = 44; i < out.length; i++) out[i] = i % 256;
  return out;
}

export function pngBytes(extra = 32): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(8 + 25 + extra);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  return out;
}

export function jpegBytes(extra = 32): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(4 + extra);
  out.set([0xff, 0xd8, 0xff, 0xe0]);
  return out;
}

export const HTML = new TextEncoder().encode(
  '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
);
export const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
);

/**
 * Whether two byte sequences are equal, compared natively. `expect(big).toEqual(bytes)` walks a
 * large array element by element for seconds on a loaded machine, long enough for the test
 * server to close the idle keep-alive connection that the next fetch then reuses (ECONNRESET).
 */
export function sameBytes(
  a: ArrayBuffer | Uint8Array | null,
  b: ArrayBuffer | Uint8Array,
): boolean {
  if (a === null) return false;
  const view = (x: ArrayBuffer | Uint8Array) =>
    x instanceof Uint8Array ? Buffer.from(x.buffer, x.byteOffset, x.byteLength) : Buffer.from(x);
  return view(a).equals(view(b));
}
