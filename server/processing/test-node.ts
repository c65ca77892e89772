/**
 * A processing node in its own process, for server/processing/takeover.test.ts: works the queue
 * of TEST_NODE_DATABASE_URL with the object store in TEST_NODE_DATA_DIR and a lease of
 * TEST_NODE_LEASE_MS; its processing reports a first stage and then never ends (a long job), so
 * the test can kill it mid-job (SIGKILL). Prints `{}` when started.
 */
import { openPostgres } from '../db/postgres';
import { openObjectStore } from '../storage/object-store';
import { startTrackProcessing } from './jobs';

const db = await openPostgres(process.env.TEST_NODE_DATABASE_URL ?? '');
startTrackProcessing({
  db,
  store: openObjectStore(process.env.TEST_NODE_DATA_DIR ?? ''),
  workers: 1,
  pollMs: 50,
  leaseMs: Number(process.env.TEST_NODE_LEASE_MS),
  processAudio: (_bytes, onStage) => {
    onStage('decoding', 0);
    return new Promise(() => undefined);
  },
});
console.log('{}');
