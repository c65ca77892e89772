export { createStorageApp, type StorageAppOptions } from './app';
export {
  openObjectStore,
  type ObjectStore,
  type ByteRange,
  type StoredBytes,
} from './object-store';
export {
  putObjectAsService,
  publicObjectPath,
  DEFAULT_FILE_SIZE_LIMIT,
  DEFAULT_CACHE_CONTROL,
} from './service';
export { objectStoreFromEnv, s3ConfigFromEnv } from './from-env';
export { StorageError } from './errors';
export { sniffContentType, type SniffedType } from './sniff';
