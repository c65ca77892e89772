/**
 * Where the gateway's CPU per request goes, beside the REST bench's rounds (docs/rest-api.md,
 * "Speed"): the same requests, from the same load generator, answered by
 *
 * - a bare node:http server in this process that sends the gateway's own answer (status,
 *   headers and body of the probe) without reading anything: the floor of Node's HTTP on
 *   loopback TCP under this load;
 * - the REST core alone: the gateway's node:http fast path called in this process, no socket,
 *   with a database that hands back the probe's recorded result at once: parsing, planning,
 *   the request context, the response.
 *
 * What the gateway costs beyond those two is the database client's part of a request and the
 * scheduling of three processes (the gateway, PostgreSQL, the load generator) on the machine.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database, QueryResult } from '../server/db/database';
import type { Keys } from '../server/keys/keys';
import { createRestApp } from '../server/rest/app';
import { render, type LoadSpec, type LoadWorker } from './rest-load';

export interface Breakdown {
  /** This process's CPU µs per request: the bare node:http server with the gateway's answer. */
  httpFloor: number;
  httpFloorRps: number;
  /** This process's CPU µs per request: the REST core, in process, database answered at once. */
  core: number;
}

export interface ProbeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function httpFloor(
  answer: ProbeAnswer,
  worker: LoadWorker,
  spec: Omit<LoadSpec, 'origin'>,
): Promise<{ cpu: number; rps: number }> {
  const headers = { ...answer.headers, 'Content-Length': String(Buffer.byteLength(answer.body)) };
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  });
  server.keepAliveTimeout = 65_000; // as server/http/serve.ts
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await worker.run({ ...spec, origin, seconds: 1, prefix: `${spec.prefix}w` });
    const c0 = cpuNow();
    const result = await worker.run({ ...spec, origin });
    return { cpu: result.ok > 0 ? (cpuNow() - c0) / result.ok : 0, rps: result.rps };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function coreAlone(
  db: Database,
  keys: Pick<Keys, 'jwtSecret'>,
  result: QueryResult,
  spec: Omit<LoadSpec, 'origin'>,
): Promise<number> {
  // Schema reads go to the real database; the request's batch is answered at once.
  const answered: Database = { ...db, batch: async (statements) => statements.map(() => result) };
  const rest = createRestApp({ db: answered, keys });
  await rest.ready;
  const fast = rest.nodeListener('/rest/v1');
  let done = 0;
  const res = {
    headersSent: false,
    writeHead() {
      return this;
    },
    end() {
      done++;
    },
  } as unknown as ServerResponse;
  const requests = spec.variants.map((v, i) => ({
    method: spec.method,
    url: render(spec.path, v.vars, `${spec.prefix}c${i}`),
    rawHeaders: Object.entries({
      Host: '127.0.0.1',
      ...spec.headers,
      Authorization: `Bearer ${spec.tokens[v.token] ?? ''}`,
      'User-Agent': 'wrk',
    }).flat(),
  })) as unknown as IncomingMessage[];
  const run = async (n: number) => {
    const start = done;
    for (let i = 0; i < n; i++) {
      if (!fast(requests[i % requests.length] as IncomingMessage, res))
        throw new Error('the fast path left a request of the bench');
      if (i % 100 === 99) await new Promise((r) => setImmediate(r));
    }
    while (done - start < n) await new Promise((r) => setImmediate(r));
  };
  await run(5_000);
  const n = 20_000;
  const c0 = cpuNow();
  await run(n);
  return (cpuNow() - c0) / n;
}

/** Both figures for one GET scenario (its probe's answer and recorded result). */
export async function gatewayBreakdown(opts: {
  db: Database;
  keys: Pick<Keys, 'jwtSecret'>;
  answer: ProbeAnswer;
  result: QueryResult;
  worker: LoadWorker;
  spec: Omit<LoadSpec, 'origin'>;
}): Promise<Breakdown> {
  const floor = await httpFloor(opts.answer, opts.worker, opts.spec);
  const core = await coreAlone(opts.db, opts.keys, opts.result, opts.spec);
  return { httpFloor: floor.cpu, httpFloorRps: floor.rps, core };
}
