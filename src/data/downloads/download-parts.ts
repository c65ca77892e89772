/**
 * The bytes of unfinished downloads (docs/offline.md, "Resuming"): kept in the downloads cache
 * as pieces keyed `/offline-audio-part/<user>/<track>/<offset>`, appended as they arrive, so a
 * download interrupted by a pause, a dropped connection or a reload goes on from the bytes
 * already kept (HTTP Range) instead of its first byte. When the file is complete its pieces are
 * joined into the one cached file and deleted.
 */
import { offlineAudioPartFolder } from '@/lib/offline-audio';

export class DownloadParts {
  constructor(
    private readonly cache: () => Promise<Cache>,
    private readonly origin: string,
    private readonly userId: string,
  ) {}

  private folder(trackId?: string): string {
    return new URL(offlineAudioPartFolder(this.userId, trackId), this.origin).toString();
  }

  /** Appends `bytes` at `offset` (the bytes kept so far); the blob's type is the file's. */
  async put(trackId: string, offset: number, bytes: Blob): Promise<void> {
    const response = new Response(bytes, {
      headers: {
        'Content-Length': String(bytes.size),
        'Content-Type': bytes.type || 'application/octet-stream',
      },
    });
    await (await this.cache()).put(`${this.folder(trackId)}${offset}`, response);
  }

  /**
   * The kept pieces of a track, in order, when they are whole from byte 0 (none missing, none
   * overlapping); an empty list otherwise (the pieces that are there are deleted: a gap cannot
   * be resumed).
   */
  async read(trackId: string): Promise<Blob[]> {
    const cache = await this.cache();
    const folder = this.folder(trackId);
    const pieces = (await cache.keys())
      .filter((r) => r.url.startsWith(folder))
      .map((r) => ({ request: r, offset: Number(r.url.slice(folder.length)) }))
      .sort((a, b) => a.offset - b.offset);
    const blobs: Blob[] = [];
    let next = 0;
    for (const piece of pieces) {
      const blob = await (await cache.match(piece.request))?.blob();
      if (!blob || piece.offset !== next) {
        await this.drop(trackId);
        return [];
      }
      blobs.push(blob);
      next += blob.size;
    }
    return blobs;
  }

  /** Deletes a track's pieces, or every piece of the listener. */
  async drop(trackId?: string): Promise<void> {
    const cache = await this.cache();
    const folder = this.folder(trackId);
    const keys = (await cache.keys()).filter((r) => r.url.startsWith(folder));
    await Promise.all(keys.map((r) => cache.delete(r)));
  }
}
