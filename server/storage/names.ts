/**
 * Bucket ids and object names, as Supabase Storage accepts them (S3-safe characters only:
 * `isValidKey` of supabase/storage), plus what a file system needs: no `.`/`..` segments, no
 * empty segments, no leading or trailing slash, no NUL or backslash, at most 1024 bytes.
 */
import { StorageError } from './errors';

const KEY_CHARS = /^(\w|\/|!|-|\.|\*|'|\(|\)| |&|\$|@|=|;|:|\+|,|\?)*$/;
const BUCKET_CHARS = /^(\w|!|-|\.|\*|'|\(|\)| |&|\$|@|=|;|:|\+|,|\?)*$/;
const MAX_KEY_BYTES = 1024;

export function isSafeObjectName(name: string): boolean {
  if (name.length === 0 || Buffer.byteLength(name) > MAX_KEY_BYTES) return false;
  if (!KEY_CHARS.test(name)) return false; // also refuses NUL, backslash, %, unicode
  if (name.startsWith('/') || name.endsWith('/')) return false;
  return name.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && s.trim() !== '');
}

export function isSafeBucketId(id: string): boolean {
  return (
    id.length > 0 &&
    id.length <= 100 &&
    BUCKET_CHARS.test(id) &&
    id !== '.' &&
    id !== '..' &&
    id.trim() === id
  );
}

export function assertSafeObjectName(name: string): void {
  if (!isSafeObjectName(name)) throw StorageError.invalidKey(name);
}

export function assertSafeBucketId(id: string): void {
  if (!isSafeBucketId(id)) throw StorageError.invalidBucketName(id);
}
