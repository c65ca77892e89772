/**
 * Supabase Storage's errors: HTTP 400 (500 for server faults) with the real status in the body,
 * `{statusCode: '404', code, error, message}`, which storage-js turns into a StorageApiError.
 */
export class StorageError extends Error {
  constructor(
    /** The status Storage reports in the body ('404', '409', '403', '413', '415', ...). */
    readonly statusCode: number,
    readonly code: string,
    /** Storage's legacy `error` string (e.g. 'Duplicate', 'not_found'). */
    readonly error: string,
    message: string,
  ) {
    super(message);
    this.name = 'StorageError';
  }

  /** The HTTP status Storage answers with: 500 stays 500, everything else is 400. */
  get httpStatus(): 400 | 500 {
    return this.statusCode >= 500 ? 500 : 400;
  }

  body() {
    return {
      statusCode: String(this.statusCode),
      code: this.code,
      error: this.error,
      message: this.message,
    };
  }

  static bucketNotFound(): StorageError {
    return new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found');
  }
  static objectNotFound(): StorageError {
    return new StorageError(404, 'NoSuchKey', 'not_found', 'Object not found');
  }
  static alreadyExists(): StorageError {
    return new StorageError(409, 'Duplicate', 'Duplicate', 'The resource already exists');
  }
  static accessDenied(message = 'new row violates row-level security policy'): StorageError {
    return new StorageError(403, 'AccessDenied', 'Unauthorized', message);
  }
  static tooLarge(): StorageError {
    return new StorageError(
      413,
      'EntityTooLarge',
      'Payload too large',
      'The object exceeded the maximum allowed size',
    );
  }
  static invalidMimeType(mimeType: string): StorageError {
    return new StorageError(
      415,
      'InvalidMimeType',
      'invalid_mime_type',
      `mime type ${mimeType} is not supported`,
    );
  }
  static invalidKey(key: string): StorageError {
    return new StorageError(400, 'InvalidKey', 'Invalid Input', `Invalid key: ${key}`);
  }
  static invalidBucketName(bucket: string): StorageError {
    return new StorageError(
      400,
      'InvalidBucketName',
      'Invalid Input',
      `Bucket name invalid: ${bucket}`,
    );
  }
  static invalidJwt(message = 'Invalid JWT'): StorageError {
    return new StorageError(400, 'InvalidJWT', 'Unauthorized', message);
  }
  static invalidSignature(message = 'Invalid signature'): StorageError {
    return new StorageError(400, 'InvalidSignature', 'InvalidSignature', message);
  }
  static expiredSignature(): StorageError {
    return new StorageError(400, 'ExpiredToken', 'InvalidJWT', 'The provided token has expired.');
  }
  static invalidRequest(message: string): StorageError {
    return new StorageError(400, 'InvalidRequest', 'Invalid Input', message);
  }
  static noContent(): StorageError {
    return new StorageError(400, 'InvalidRequest', 'Invalid Input', 'No content provided');
  }
  static internal(message = 'Internal server error'): StorageError {
    return new StorageError(500, 'InternalError', 'Internal Server Error', message);
  }
}

/** Postgres errors raised inside a storage transaction, mapped as Supabase Storage does. */
export function storageErrorFromDatabase(err: unknown): StorageError | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '42501') return StorageError.accessDenied();
  if (code === '23505') return StorageError.alreadyExists();
  return null;
}
