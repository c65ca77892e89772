/**
 * What a file IS, from its first bytes (never from its name or declared type): the seven formats
 * Soundloft stores. Anything else (HTML, SVG, scripts, archives, ...) is `null`.
 */
export type SniffedType =
  | 'audio/mpeg'
  | 'audio/wav'
  | 'audio/ogg'
  | 'audio/flac'
  | 'image/png'
  | 'image/jpeg'
  | 'image/webp';

/** Bytes a caller must pass for a reliable answer. */
export const SNIFF_BYTES = 64;

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length &&
  [...text].every((ch, i) => bytes[at + i] === ch.charCodeAt(0));

/** An ID3v2 header: "ID3", version 2..4, revision < 0xFF, four syncsafe size bytes. */
function isId3(b: Uint8Array): boolean {
  if (!ascii(b, 0, 'ID3') || b.length < 10) return false;
  const version = b[3] ?? 0;
  if (version < 2 || version > 4 || b[4] === 0xff) return false;
  return [b[6], b[7], b[8], b[9]].every((x) => x !== undefined && x < 0x80);
}

const MPEG_BITRATE_KBPS: Record<string, number[]> = {
  // [version][layer] → bitrates by index (0 = free, 15 = bad)
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MPEG_SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000], // MPEG-1
  2: [22050, 24000, 16000], // MPEG-2
  0: [11025, 12000, 8000], // MPEG-2.5
};

/** Length in bytes of the MPEG audio frame whose header starts at `at`, or 0 if not a header. */
export function mpegFrameLength(b: Uint8Array, at = 0): number {
  const b1 = b[at + 1];
  const b2 = b[at + 2];
  if (b[at] !== 0xff || b1 === undefined || b2 === undefined || (b1 & 0xe0) !== 0xe0) return 0;
  const versionBits = (b1 >> 3) & 0b11; // 0 = 2.5, 1 = reserved, 2 = 2, 3 = 1
  const layerBits = (b1 >> 1) & 0b11; // 0 = reserved (AAC ADTS), 1 = III, 2 = II, 3 = I
  const bitrateIndex = (b2 >> 4) & 0b1111;
  const rateIndex = (b2 >> 2) & 0b11;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15) return 0;
  if (rateIndex === 3) return 0;
  const layer = 4 - layerBits;
  const version = versionBits === 3 ? 1 : 2;
  const kbps = MPEG_BITRATE_KBPS[`${version}-${layer}`]?.[bitrateIndex] ?? 0;
  const rate = MPEG_SAMPLE_RATES[versionBits]?.[rateIndex] ?? 0;
  if (!kbps || !rate) return 0;
  const padding = (b2 >> 1) & 1;
  if (layer === 1) return Math.floor((12 * kbps * 1000) / rate + padding) * 4;
  const samples = layer === 3 && version === 2 ? 72 : 144;
  return Math.floor((samples * kbps * 1000) / rate) + padding;
}

/**
 * An MPEG audio stream without an ID3 tag: a valid frame header, and, when the buffer holds it,
 * a second valid header right after the first frame (one lucky 0xFFEx pair is not an MP3).
 */
function isMpegFrameSync(b: Uint8Array): boolean {
  const first = mpegFrameLength(b, 0);
  if (!first) return false;
  if (b.length < first + 4) return true;
  return mpegFrameLength(b, first) > 0;
}

export function sniffContentType(bytes: Uint8Array): SniffedType | null {
  const b = bytes;
  if (isId3(b) || isMpegFrameSync(b)) return 'audio/mpeg';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE')) return 'audio/wav';
  if (ascii(b, 0, 'OggS') && b[4] === 0) return 'audio/ogg';
  if (ascii(b, 0, 'fLaC')) return 'audio/flac';
  if (b.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((x, i) => b[i] === x))
    return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return 'image/webp';
  return null;
}

const SNIFFED: ReadonlySet<string> = new Set<SniffedType>([
  'audio/mpeg',
  'audio/wav',
  'audio/ogg',
  'audio/flac',
  'image/png',
  'image/jpeg',
  'image/webp',
]);

export function isSniffedType(type: string): type is SniffedType {
  return SNIFFED.has(type);
}

/** Declared MIME types and their aliases, normalised to the names `sniffContentType` returns. */
const ALIASES: Record<string, SniffedType> = {
  'audio/mpeg': 'audio/mpeg',
  'audio/mp3': 'audio/mpeg',
  'audio/mpeg3': 'audio/mpeg',
  'audio/x-mpeg-3': 'audio/mpeg',
  'audio/wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/x-wav': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/ogg': 'audio/ogg',
  'application/ogg': 'audio/ogg',
  'audio/flac': 'audio/flac',
  'audio/x-flac': 'audio/flac',
  'image/png': 'image/png',
  'image/jpeg': 'image/jpeg',
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/webp': 'image/webp',
};

export function normaliseMimeType(type: string): string {
  const bare = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return ALIASES[bare] ?? bare;
}

/**
 * Whether a bucket's `allowed_mime_types` (Supabase's list: exact types or `type/*`) admits the
 * sniffed type. Aliases count: a bucket listing `audio/x-wav` admits a sniffed `audio/wav`.
 */
export function isAllowedType(sniffed: SniffedType, allowed: readonly string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  return allowed.some((entry) => {
    const e = entry.trim().toLowerCase();
    if (e.endsWith('/*')) return sniffed.startsWith(e.slice(0, -1));
    return normaliseMimeType(e) === sniffed;
  });
}
