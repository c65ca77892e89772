/**
 * Answers GET/HEAD for one object: the type the bytes were sniffed as (never HTML or SVG),
 * `nosniff`, a sandboxing CSP, the stored Cache-Control, ETag / If-None-Match, Last-Modified,
 * `Accept-Ranges: bytes` and single Range requests (206, or 416 when unsatisfiable). Streams.
 */
import type { ObjectRow } from './objects';
import type { ObjectStore } from './object-store';
import { StorageError } from './errors';
import { parseRange } from './range';
import { DEFAULT_CACHE_CONTROL } from './service';
import { isSniffedType } from './sniff';

export const USER_FILE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
};

function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .includes(etag);
}

/** `?download` (file name = object's) or `?download=name`: served as an attachment. */
function contentDisposition(download: string | null, name: string): string | null {
  if (download === null) return null;
  const fileName = download || name.split('/').pop() || 'download';
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** The bytes a GET sent: inclusive byte offsets into an object of `size` bytes. */
export interface ServedBytes {
  start: number;
  end: number;
  size: number;
}

/**
 * Serves `row`'s bytes. `onServed` hears of every answer that carries bytes (200 or 206 to a GET;
 * not HEAD, 304 or 416), with the range sent.
 */
export async function serveObject(
  request: Request,
  row: ObjectRow,
  store: ObjectStore,
  onServed?: (served: ServedBytes) => void,
): Promise<Response> {
  const meta = row.metadata;
  const size = await store.size(row.bucket_id, row.name);
  if (size === null) throw StorageError.objectNotFound();
  const headers = new Headers(USER_FILE_HEADERS);
  const mimetype = meta?.mimetype ?? '';
  headers.set('Content-Type', isSniffedType(mimetype) ? mimetype : 'application/octet-stream');
  headers.set('Cache-Control', meta?.cacheControl || DEFAULT_CACHE_CONTROL);
  headers.set('Accept-Ranges', 'bytes');
  const etag = meta?.eTag;
  if (etag) headers.set('ETag', etag);
  const modified = meta?.lastModified ?? row.updated_at;
  if (modified && !Number.isNaN(Date.parse(modified)))
    headers.set('Last-Modified', new Date(modified).toUTCString());
  const url = new URL(request.url);
  const disposition = contentDisposition(url.searchParams.get('download'), row.name);
  if (disposition) headers.set('Content-Disposition', disposition);

  if (etag && etagMatches(request.headers.get('if-none-match'), etag)) {
    return new Response(null, { status: 304, headers });
  }

  // If-Range with another validator: the client's partial copy is stale, send everything.
  const ifRange = request.headers.get('if-range');
  const rangeHeader = ifRange && ifRange.trim() !== etag ? null : request.headers.get('range');
  const range = parseRange(rangeHeader, size);
  if (range.kind === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${size}`);
    headers.set('Content-Type', 'application/json');
    const body = JSON.stringify({
      statusCode: '416',
      code: 'InvalidRange',
      error: 'invalid_range',
      message: 'invalid range provided',
    });
    return new Response(request.method === 'HEAD' ? null : body, { status: 416, headers });
  }

  const status = range.kind === 'range' ? 206 : 200;
  const length = range.kind === 'range' ? range.range.end - range.range.start + 1 : size;
  if (range.kind === 'range') {
    headers.set('Content-Range', `bytes ${range.range.start}-${range.range.end}/${size}`);
  }
  headers.set('Content-Length', String(length));
  if (request.method === 'HEAD') return new Response(null, { status, headers });
  const bytes = await store.read(
    row.bucket_id,
    row.name,
    range.kind === 'range' ? range.range : undefined,
  );
  if (!bytes) throw StorageError.objectNotFound();
  const start = range.kind === 'range' ? range.range.start : 0;
  onServed?.({ start, end: start + length - 1, size });
  return new Response(bytes.stream, { status, headers });
}
