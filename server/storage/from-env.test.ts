import { describe, expect, it } from 'vitest';
import { objectStoreFromEnv, s3ConfigFromEnv } from './from-env';
import { isS3ObjectStore } from './s3-object-store';

describe('objectStoreFromEnv', () => {
  it('keeps the disk store (or memory) when no S3 variable is set', () => {
    expect(s3ConfigFromEnv({})).toBeNull();
    expect(s3ConfigFromEnv({ S3_BUCKET: '  ', DATA_DIR: './x' })).toBeNull();
    expect(isS3ObjectStore(objectStoreFromEnv({}))).toBe(false);
    expect(isS3ObjectStore(objectStoreFromEnv({ DATA_DIR: 'memory' }))).toBe(false);
  });

  it('reads the S3 variables', () => {
    expect(
      s3ConfigFromEnv({
        S3_ENDPOINT: 'https://acc.r2.cloudflarestorage.com',
        S3_REGION: 'auto',
        S3_BUCKET: 'soundloft',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
      }),
    ).toEqual({
      endpoint: 'https://acc.r2.cloudflarestorage.com',
      region: 'auto',
      bucket: 'soundloft',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      multipartThreshold: 8 * 1024 * 1024,
      partSize: 8 * 1024 * 1024,
    });
    // AWS S3 with the SDK's own credentials (instance role, AWS_PROFILE, …).
    expect(s3ConfigFromEnv({ S3_BUCKET: 'b' })).toMatchObject({
      region: 'us-east-1',
      bucket: 'b',
      forcePathStyle: false,
    });
    expect(isS3ObjectStore(objectStoreFromEnv({ S3_BUCKET: 'b', S3_REGION: 'eu-west-1' }))).toBe(
      true,
    );
  });

  it('refuses a half configuration rather than falling back to disk', () => {
    expect(() => s3ConfigFromEnv({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      'S3_BUCKET is required when S3_ENDPOINT is set',
    );
    expect(() => s3ConfigFromEnv({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' })).toThrow(/together/);
    expect(() => s3ConfigFromEnv({ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(
      /true or false/,
    );
    expect(() => s3ConfigFromEnv({ S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' })).toThrow(/URL/);
    expect(() => s3ConfigFromEnv({ S3_BUCKET: 'b', S3_MULTIPART_THRESHOLD: '1000' })).toThrow(
      /5 MiB/,
    );
  });
});
