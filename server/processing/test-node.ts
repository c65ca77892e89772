/**
 * A processing node in its own process, for server/processing/takeover.test.ts: works the queue
 * of TEST_NODE_DATABASE_URL with the object store in TEST_NODE_DATA_DIR and a lease of
 * TEST_NODE_LEASE_MS; its processing reports a first stage and then never ends (a long job), so
 * the test can kill it mid-job (SIGKILL), or, with TEST_NODE_DRAIN_TIMEOUT_MS, stop it with
 * SIGTERM through the drain of `npm start` (server/ops/drain.ts). Prints `{}` when started.
 */
import { openPostgres } from '../db/postgres';
import { drainOnSignals } from '../ops/drain';
import { createHealth } from '../ops/health';
import { createLogger } from '../ops/log';
import { openObjectStore } from '../storage/object-store';
import { startTrackProcessing } from './jobs';

const db = await openPostgres(process.env.TEST_NODE_DATABASE_URL ?? '');
const store = openObjectStore(process.env.TEST_NODE_DATA_DIR ?? '');
const processing = startTrackProcessing({
  db,
  store,
  workers: 1,
  pollMs: 50,
  leaseMs: Number(process.env.TEST_NODE_LEASE_MS),
  processAudio: (_bytes, onStage) => {
    onStage('decoding', 0);
    return new Promise(() => undefined);
  },
});
const drainTimeoutMs = process.env.TEST_NODE_DRAIN_TIMEOUT_MS;
if (drainTimeoutMs)
  drainOnSignals({
    health: createHealth({ db, store }),
    logger: createLogger('json'),
    jobs: [processing],
    close: async () => {
      await processing.close();
      await db.close();
    },
    delayMs: 0,
    timeoutMs: Number(drainTimeoutMs),
  });
console.log('{}');
