/**
 * A minimal PNG encoder (8-bit RGB, per-row adaptive filter, zlib) and a header reader for tests.
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array, crc = 0xffffffff): number {
  let c = crc;
  for (let i = 0; i < bytes.length; i++) {
    c = (CRC_TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

export const PNG_SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** Encodes `rgb` (width × height × 3 bytes, row-major) as a PNG. */
export function encodePng(width: number, height: number, rgb: Uint8Array): Uint8Array {
  if (rgb.length !== width * height * 3) throw new Error('pixel buffer size mismatch');
  const stride = width * 3;
  const raw = new Uint8Array((stride + 1) * height);
  const candidate = [new Uint8Array(stride), new Uint8Array(stride), new Uint8Array(stride)];
  for (let y = 0; y < height; y++) {
    const row = rgb.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? rgb.subarray((y - 1) * stride, y * stride) : null;
    // Filters 0 (none), 1 (sub), 2 (up); keep the one with the smallest sum of residuals.
    let best = 0;
    let bestScore = Infinity;
    for (let f = 0; f < 3; f++) {
      const out = candidate[f] as Uint8Array;
      let score = 0;
      for (let i = 0; i < stride; i++) {
        const x = row[i] as number;
        const pred = f === 1 ? (i >= 3 ? (row[i - 3] as number) : 0) : f === 2 ? (up?.[i] ?? 0) : 0;
        const v = (x - pred) & 0xff;
        out[i] = v;
        score += v < 128 ? v : 256 - v;
      }
      if (score < bestScore) {
        bestScore = score;
        best = f;
      }
    }
    raw[y * (stride + 1)] = best;
    raw.set(candidate[best] as Uint8Array, y * (stride + 1) + 1);
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, adaptive filtering, no interlace
  const parts = [
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Reads and checks the signature and IHDR (including its CRC). */
export function readPngHeader(bytes: Uint8Array): {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
} {
  if (!PNG_SIGNATURE.every((b, i) => bytes[i] === b)) throw new Error('not a PNG');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = String.fromCharCode(...bytes.subarray(12, 16));
  if (type !== 'IHDR' || view.getUint32(8) !== 13) throw new Error('first chunk is not IHDR');
  if (crc32(bytes.subarray(12, 29)) !== view.getUint32(29)) throw new Error('IHDR CRC mismatch');
  return {
    width: view.getUint32(16),
    height: view.getUint32(20),
    bitDepth: bytes[24] as number,
    colorType: bytes[25] as number,
  };
}
