/**
 * What an uploaded file is, from its bytes: the container (sniffed, as storage does), and what
 * its headers declare (codec, lossless, bitrate, duration), read with music-metadata.
 */
import { parseBuffer } from 'music-metadata';
import { sniffContentType } from '../storage/sniff';

export type AudioFormat = 'mpeg' | 'wav' | 'ogg' | 'flac';

export interface AudioInspection {
  format: AudioFormat;
  lossless: boolean;
  /** The file's bitrate in kbps (lossy formats), when its headers say it. */
  bitrateKbps: number | null;
  /** Seconds the headers declare, when they declare it exactly (not estimated from the size). */
  declaredSeconds: number | null;
  sampleRate: number | null;
  channels: number | null;
}

const FORMAT_OF_MIME: Record<string, AudioFormat> = {
  'audio/mpeg': 'mpeg',
  'audio/wav': 'wav',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
};

export class AudioRejected extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'AudioRejected';
  }
}

/** The spec's message for audio that cannot be read (section 5). */
export const UNREADABLE_AUDIO = 'Failed to load audio file. Please try another file.';

export async function inspectAudio(bytes: Uint8Array): Promise<AudioInspection> {
  const mime = sniffContentType(bytes);
  const format = mime ? FORMAT_OF_MIME[mime] : undefined;
  if (!format) throw new AudioRejected(UNREADABLE_AUDIO);
  let meta;
  try {
    meta = await parseBuffer(
      bytes,
      { mimeType: mime ?? undefined, size: bytes.length },
      {
        duration: false,
        skipCovers: true,
      },
    );
  } catch {
    throw new AudioRejected(UNREADABLE_AUDIO);
  }
  const f = meta.format;
  // WAV (data chunk size), FLAC (STREAMINFO total samples) and Ogg (last granule) declare their
  // length exactly; an MP3's is exact only with a Xing/Info/VBRI header.
  const exact = format !== 'mpeg' || f.codecProfile === 'V' || f.tool !== undefined;
  return {
    format,
    lossless: f.lossless === true && (format === 'wav' || format === 'flac'),
    bitrateKbps: f.bitrate && !f.lossless ? Math.round(f.bitrate / 1000) : null,
    declaredSeconds: exact && f.duration && Number.isFinite(f.duration) ? f.duration : null,
    sampleRate: f.sampleRate ?? null,
    channels: f.numberOfChannels ?? null,
  };
}
