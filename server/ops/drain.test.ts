/**
 * The drain's order and bound (server/ops/drain.ts) on a real HTTP server; the whole process
 * under SIGTERM is tests/faults/server/drain.test.ts.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { drain, trackConnections } from './drain';
import { createHealth } from './health';
import { createLogger } from './log';
import { createMemoryObjectStore } from '../storage/object-store';

const logger = createLogger('json', { write: () => true });
const health = () =>
  createHealth({
    db: { query: async () => ({ rows: [], fields: [] }) },
    store: createMemoryObjectStore(),
  });

describe('drain', () => {
  it('waits for the running job to finish its step, then closes the rest', async () => {
    const order: string[] = [];
    let finishJob: () => void = () => undefined;
    const job = {
      close: () =>
        new Promise<void>((resolve) => {
          finishJob = resolve;
        }),
    };
    const h = health();
    const draining = drain(
      {
        health: h,
        logger,
        jobs: [job],
        close: async () => {
          order.push('closed');
        },
        delayMs: 0,
        timeoutMs: 30_000,
      },
      'SIGTERM',
    ).then((outcome) => order.push(outcome));
    expect(h.draining).toBe(true);
    expect((await h.check()).ready).toBe(false);
    // Everything else has settled (microtasks, I/O): nothing closes while the job runs.
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    order.push('job done');
    finishJob();
    await draining;
    expect(order).toEqual(['job done', 'closed', 'drained']);
  });

  it('hands the jobs still running back before the deadline, then closes the rest', async () => {
    const order: string[] = [];
    let handedBack: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (handedBack = resolve));
    const job = {
      close: () => closed, // a step that would not end before the deadline
      handBack: async () => {
        order.push('handed back');
        handedBack();
        return 1;
      },
    };
    const outcome = await drain(
      {
        health: health(),
        logger,
        jobs: [job, { close: async () => undefined }],
        close: async () => {
          order.push('closed');
        },
        delayMs: 0,
        timeoutMs: 2000,
      },
      'SIGTERM',
    );
    expect(order).toEqual(['handed back', 'closed']);
    expect(outcome).toBe('drained');
  });

  it('cuts what is left at the deadline and still resolves', async () => {
    const server = createServer(() => undefined); // never answers
    const connections = trackConnections(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const hanging = fetch(`http://127.0.0.1:${port}/`).then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise<void>((resolve) => server.once('request', () => resolve()));
    const closed: string[] = [];
    const outcome = await drain(
      {
        health: health(),
        logger,
        http: server,
        connections,
        jobs: [{ close: () => new Promise<void>(() => undefined) }],
        close: async () => {
          closed.push('closed');
        },
        delayMs: 0,
        timeoutMs: 200,
      },
      'SIGTERM',
    );
    expect(outcome).toBe('timed out');
    expect(await hanging).toBe('cut');
    expect(closed).toEqual([]);
  });
});
