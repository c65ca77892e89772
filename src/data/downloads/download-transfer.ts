/**
 * One file's transfer into the downloads cache (docs/offline.md, "Resuming"): a request for the
 * bytes not kept yet (`Range: bytes=<kept>-`, `If-Range: <etag>`), the body appended to the kept
 * parts as it arrives, and the whole file stored once complete. The download manager decides
 * what happens between tries; this module moves bytes.
 */
import type { Download } from '../db';
import type { DownloadParts } from './download-parts';

export const DOWNLOAD_FAILED_MESSAGE = 'Download failed. Try again.';

/** The server refused the file, or answered something that is not it: not a network drop. */
export class Refused extends Error {}

/** What a file's transfer has kept so far: the parts, in order, and their total size. */
export interface Kept {
  blobs: Blob[];
  bytes: number;
}

export const keptOf = (blobs: Blob[]): Kept => ({
  blobs,
  bytes: blobs.reduce((sum, b) => sum + b.size, 0),
});

export interface TransferContext {
  trackId: string;
  url: string;
  /** The row as it was when the try began (quality, size and ETag of the kept bytes). */
  row: Download;
  quality: string | null;
  kept: Kept;
  signal: AbortSignal;
  fetch: typeof fetch;
  parts: DownloadParts;
  /** Bytes held in memory before they are appended to the parts. */
  partBytes: number;
  /** Writes the row (progress, size, ETag); never its state. */
  update: (changes: Partial<Download>) => Promise<unknown>;
  progressEveryMs: number;
  /** Whether the file must not be kept (cancelled): nothing more is appended. */
  cancelled: () => boolean;
}

/** `bytes a-b/total` of a 206. */
function contentRange(header: string | null): { start: number; total: number } | null {
  const match = /^bytes (\d+)-\d+\/(\d+)$/.exec(header?.trim() ?? '');
  return match ? { start: Number(match[1]), total: Number(match[2]) } : null;
}

async function restart(ctx: TransferContext): Promise<void> {
  await ctx.parts.drop(ctx.trackId);
  ctx.kept.blobs = [];
  ctx.kept.bytes = 0;
}

/**
 * Asks for the bytes after those kept; a server that sends the whole file instead (200: no
 * range support, or If-Range found the file changed), a range that does not fit what is kept,
 * or another rendition than the kept one, start the file again from its first byte.
 */
async function request(
  ctx: TransferContext,
): Promise<{ response: Response; total: number | null }> {
  const { row, kept } = ctx;
  if (kept.bytes > 0 && (row.quality !== ctx.quality || row.totalBytes === null))
    await restart(ctx);
  for (;;) {
    const headers: Record<string, string> = {};
    if (kept.bytes > 0) {
      headers.Range = `bytes=${kept.bytes}-`;
      if (row.etag) headers['If-Range'] = row.etag;
    }
    const response = await ctx.fetch(ctx.url, { signal: ctx.signal, headers });
    if (kept.bytes > 0 && response.status === 206) {
      const range = contentRange(response.headers.get('Content-Range'));
      if (range && range.start === kept.bytes && range.total === row.totalBytes)
        return { response, total: range.total };
    }
    if (response.ok && response.status !== 206) {
      if (kept.bytes > 0) await restart(ctx);
      const length = Number(response.headers.get('Content-Length'));
      return { response, total: Number.isFinite(length) && length > 0 ? length : null };
    }
    if (kept.bytes === 0) throw new Refused(DOWNLOAD_FAILED_MESSAGE);
    // A 416 or a range that does not continue the kept bytes: the whole file again.
    await response.body?.cancel().catch(() => undefined);
    await restart(ctx);
  }
}

/**
 * Runs one try: resolves with the whole file (kept parts and the bytes that followed) as one
 * Blob and its Content-Type, or rejects (aborted, connection lost, refused) after appending the
 * bytes it received to the parts, so the next try goes on from there.
 */
export async function transfer(ctx: TransferContext): Promise<{ file: Blob; type: string }> {
  const { kept } = ctx;
  const known = ctx.row.totalBytes;
  if (known !== null && kept.bytes === known && ctx.row.quality === ctx.quality)
    return { file: new Blob(kept.blobs), type: kept.blobs[0]?.type || 'audio/mpeg' };
  const { response, total } = await request(ctx);
  if (!response.body) throw new Refused(DOWNLOAD_FAILED_MESSAGE);
  await ctx.update({
    totalBytes: total,
    quality: ctx.quality,
    etag: response.headers.get('ETag'),
    receivedBytes: kept.bytes,
  });
  const type = response.headers.get('Content-Type') ?? 'audio/mpeg';
  // Stream chunks are never shared memory.
  let pending: Uint8Array<ArrayBuffer>[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (pendingBytes === 0 || ctx.cancelled()) return;
    const blob = new Blob(pending, { type });
    pending = [];
    pendingBytes = 0;
    await ctx.parts.put(ctx.trackId, kept.bytes, blob);
    kept.blobs.push(blob);
    kept.bytes += blob.size;
    await ctx.update({ receivedBytes: kept.bytes });
  };
  const reader = response.body.getReader();
  let lastWrite = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending.push(value as Uint8Array<ArrayBuffer>);
      pendingBytes += value.byteLength;
      if (pendingBytes >= ctx.partBytes) await flush();
      const now = Date.now();
      if (now - lastWrite >= ctx.progressEveryMs) {
        lastWrite = now;
        await ctx.update({ receivedBytes: kept.bytes + pendingBytes });
      }
    }
  } catch (error) {
    // What arrived before the drop is kept for the next try (unless the file was cancelled).
    await flush().catch(() => undefined);
    throw error;
  }
  const file = new Blob([...kept.blobs, ...pending], { type });
  if (total !== null && file.size !== total) {
    await restart(ctx);
    throw new Refused(DOWNLOAD_FAILED_MESSAGE);
  }
  if (ctx.signal.aborted) {
    // Paused or stopped just as the last byte came: keep it all for the resume.
    await flush();
    throw new DOMException('The download was interrupted.', 'AbortError');
  }
  return { file, type };
}
