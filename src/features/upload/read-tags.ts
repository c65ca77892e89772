/**
 * Reads an audio file's own tags in the browser (ID3v2, Vorbis comments, FLAC, RIFF INFO) with
 * music-metadata's browser entry, `parseBlob`: title, artist, album, genre, the embedded cover
 * and the duration. The library loads when the first file is picked, so the /upload page itself
 * stays light and no other page ever downloads it.
 */
import { coverFileError } from './upload-rules';

export interface AudioTags {
  title: string | null;
  artist: string | null;
  album: string | null;
  genre: string | null;
  /** Seconds, as the file's headers or frames say (the server measures it again). */
  duration: number | null;
  /** The embedded front cover, when it is a JPEG, PNG or WebP under 5 MB. */
  cover: File | null;
  /** What the bytes are: 'MPEG', 'WAVE', 'Ogg', 'FLAC'... */
  container: string | null;
  codec: string | null;
  bitrate: number | null;
  sampleRate: number | null;
}

const COVER_EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

const text = (value: string | undefined | null): string | null => value?.trim() || null;

/** Throws when the bytes are not audio music-metadata can read (a renamed file, a broken one). */
export async function readAudioTags(file: Blob): Promise<AudioTags> {
  const { parseBlob, selectCover } = await import('music-metadata');
  const { common, format } = await parseBlob(file, { duration: true, skipCovers: false });
  if (!format.container || !format.duration || !Number.isFinite(format.duration)) {
    throw new Error('No audio found in the file');
  }
  const picture = selectCover(common.picture);
  let cover: File | null = null;
  if (picture) {
    const type = picture.format.toLowerCase() === 'image/jpg' ? 'image/jpeg' : picture.format;
    const candidate = new File(
      [picture.data as Uint8Array<ArrayBuffer>],
      `cover.${COVER_EXTENSIONS[type] ?? 'img'}`,
      {
        type,
      },
    );
    cover = coverFileError(candidate) ? null : candidate;
  }
  return {
    title: text(common.title),
    artist: text(common.artist) ?? text(common.albumartist),
    album: text(common.album),
    genre: text(common.genre?.[0]),
    duration: format.duration,
    cover,
    container: format.container,
    codec: format.codec ?? null,
    bitrate: format.bitrate ?? null,
    sampleRate: format.sampleRate ?? null,
  };
}
