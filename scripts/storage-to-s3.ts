/**
 * `npm run storage:to-s3`: copies the disk object store (DATA_DIR/storage, default ./.data) into
 * the S3 bucket the S3_* variables name, idempotent (run it again after a failure: what is
 * already there with the right size is skipped), with progress and a size check of every copy.
 * Stop the servers that write DATA_DIR first (or run it twice: before and after the switch).
 * docs/object-storage.md.
 */
import { copyDiskStoreToS3 } from '../server/storage/disk-to-s3';
import { s3ConfigFromEnv } from '../server/storage/from-env';

const config = s3ConfigFromEnv(process.env);
if (!config) {
  console.error('storage:to-s3: set S3_BUCKET (and S3_ENDPOINT, S3_REGION, keys…) first');
  process.exit(2);
}
const dataDir = process.env.DATA_DIR?.trim() || './.data';
if (dataDir === 'memory') {
  console.error('storage:to-s3: DATA_DIR=memory has no files to copy');
  process.exit(2);
}
try {
  const result = await copyDiskStoreToS3({ dataDir, config, log: (line) => console.log(line) });
  if (result.ignored.length > 0) process.exitCode = 1;
} catch (error) {
  console.error('storage:to-s3 failed:', error instanceof Error ? error.message : error);
  process.exit(1);
}
