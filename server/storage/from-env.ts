/**
 * Which object store the environment asks for: S3 when `S3_BUCKET` is set, else files under
 * `DATA_DIR/storage` (default `./.data`), or memory with `DATA_DIR=memory`, as before S3 existed.
 * The variables are in docs/object-storage.md and the README.
 */
import { openObjectStore, type ObjectStore } from './object-store';
import {
  createS3ObjectStore,
  DEFAULT_MULTIPART_THRESHOLD,
  type S3StoreConfig,
} from './s3-object-store';

type Env = Record<string, string | undefined>;

const S3_VARIABLES = [
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_BUCKET',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'S3_MULTIPART_THRESHOLD',
] as const;

function flag(name: string, value: string | undefined): boolean {
  const v = value?.trim().toLowerCase() ?? '';
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true' || v === '1') return true;
  throw new Error(`${name} must be true or false, got "${value}"`);
}

function bytes(name: string, value: string | undefined, fallback: number): number {
  const v = value?.trim();
  if (!v) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 5 * 1024 * 1024 || n > 5 * 1024 * 1024 * 1024)
    throw new Error(`${name} must be a number of bytes from 5 MiB to 5 GiB, got "${value}"`);
  return n;
}

/** The S3 configuration of `env`, or null when S3 is not configured (no S3_* variable set). */
export function s3ConfigFromEnv(env: Env): S3StoreConfig | null {
  const get = (name: (typeof S3_VARIABLES)[number]) => env[name]?.trim() || undefined;
  const set = S3_VARIABLES.filter((name) => get(name) !== undefined);
  if (set.length === 0) return null;
  const bucket = get('S3_BUCKET');
  if (!bucket) throw new Error(`S3_BUCKET is required when ${set.join(', ')} is set`);
  const accessKeyId = get('S3_ACCESS_KEY_ID');
  const secretAccessKey = get('S3_SECRET_ACCESS_KEY');
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither');
  const endpoint = get('S3_ENDPOINT');
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint))
    throw new Error(`S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  const threshold = bytes(
    'S3_MULTIPART_THRESHOLD',
    get('S3_MULTIPART_THRESHOLD'),
    DEFAULT_MULTIPART_THRESHOLD,
  );
  return {
    ...(endpoint ? { endpoint } : {}),
    region: get('S3_REGION') ?? 'us-east-1',
    bucket,
    ...(accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : {}),
    forcePathStyle: flag('S3_FORCE_PATH_STYLE', get('S3_FORCE_PATH_STYLE')),
    multipartThreshold: threshold,
    partSize: threshold,
  };
}

/** The object store `env` configures (backend.ts, scripts). */
export function objectStoreFromEnv(env: Env): ObjectStore {
  const s3 = s3ConfigFromEnv(env);
  return s3 ? createS3ObjectStore(s3) : openObjectStore(env.DATA_DIR?.trim() || './.data');
}
