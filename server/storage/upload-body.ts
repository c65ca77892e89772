/**
 * Reads an upload's body as storage-js sends it: raw bytes (declared type in Content-Type,
 * `cache-control` header, `x-metadata` base64 JSON) or multipart/form-data (the first file part,
 * `cacheControl` and `metadata` fields). Buffers at most the bucket's limit plus form overhead:
 * a body beyond that is refused as soon as it is seen, never read to the end.
 */
import { readCapped as readCappedBody } from '../lib/read-capped';
import { StorageError } from './errors';

const readCapped = (request: Request, cap: number) =>
  readCappedBody(request, cap, () => StorageError.tooLarge());

/** Room for multipart boundaries and small fields on top of the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

export interface UploadBody {
  bytes: Uint8Array;
  contentType: string;
  cacheControl: string | undefined;
  userMetadata: Record<string, unknown> | null;
}

function parseUserMetadata(json: string | null | undefined): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    throw StorageError.invalidRequest('Invalid metadata: expected a JSON object');
  }
}

export async function readUploadBody(request: Request, limit: number): Promise<UploadBody> {
  const type = request.headers.get('content-type') ?? '';
  if (/^multipart\/form-data/i.test(type)) {
    const raw = await readCapped(request, limit + MULTIPART_OVERHEAD);
    let form: FormData;
    try {
      form = await new Response(raw, { headers: { 'content-type': type } }).formData();
    } catch {
      throw StorageError.invalidRequest('Malformed multipart/form-data body');
    }
    let file: File | null = null;
    for (const value of form.values()) {
      if (typeof value !== 'string') {
        file = value;
        break;
      }
    }
    if (!file) throw StorageError.noContent();
    if (file.size > limit) throw StorageError.tooLarge();
    const cacheControl = form.get('cacheControl');
    const metadata = form.get('metadata');
    return {
      bytes: new Uint8Array(await file.arrayBuffer()),
      contentType: file.type || 'application/octet-stream',
      cacheControl: typeof cacheControl === 'string' ? cacheControl : undefined,
      userMetadata: parseUserMetadata(typeof metadata === 'string' ? metadata : null),
    };
  }
  const bytes = await readCapped(request, limit);
  const header = request.headers.get('x-metadata');
  return {
    bytes,
    contentType: type || 'application/octet-stream',
    cacheControl: request.headers.get('cache-control') ?? undefined,
    userMetadata: parseUserMetadata(header ? Buffer.from(header, 'base64').toString('utf8') : null),
  };
}
