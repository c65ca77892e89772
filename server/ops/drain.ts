/**
 * SIGTERM (and SIGINT) drain within DRAIN_TIMEOUT_MS (default 30 s; docs/deploy.md):
 *
 * 1. /readyz answers 503 at once; for DRAIN_DELAY_MS (default 0) the node keeps serving, so a
 *    load balancer that probes every few seconds sees it before connections are refused.
 * 2. The listening sockets close (new connections are refused); idle keep-alive connections
 *    close; answers still being written finish, each with `Connection: close`.
 * 3. Realtime sockets close with 1012 "service restart" (realtime-js reconnects elsewhere).
 * 4. The job queues stop claiming; the job running may finish. A job still running when the
 *    deadline is near (HAND_BACK_RESERVE_MS before it) is handed back: queued again at once with
 *    its lease's token (fenced), its claim not counted, so another worker takes it now rather
 *    than when its lease lapses; the run here writes nothing more (docs/nodes.md).
 * 5. The backend closes (play evidence written, database closed) and the process exits 0.
 *
 * At the deadline whatever is left is cut, logged, and the process exits 0 all the same.
 * A second signal exits at once (Ctrl-C twice in a terminal).
 */
import type { Server } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Health } from './health';
import type { Logger } from './log';

export interface DrainOptions {
  health: Health;
  logger: Logger;
  /** The main HTTP server (absent on a worker), its connections tracked from the start. */
  http?: Server;
  connections?: ReturnType<typeof trackConnections>;
  /** The worker's health server: answers (503) until the very end. */
  healthServer?: Server;
  /** Realtime's drain (closes sockets with a reconnect hint). */
  realtime?: { drain(): Promise<void> };
  /**
   * The job queues: close() stops claiming and waits for the jobs running; handBack() gives the
   * jobs still running back to the queue (then close() resolves) and says how many.
   */
  jobs: { close(): Promise<void>; handBack?(): Promise<number> }[];
  /** Everything else (play evidence, database). */
  close: () => Promise<void>;
  delayMs: number;
  timeoutMs: number;
  exit?: (code: number) => void;
}

/**
 * How long before the deadline the jobs still running are handed back (a quarter of a shorter
 * timeout), so that the hand-back's statement is done within DRAIN_TIMEOUT_MS.
 */
export const HAND_BACK_RESERVE_MS = 2000;

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/**
 * The connections of an HTTP server, to close each once its answer is out. Node's own
 * `server.close()` and `closeIdleConnections()` destroy a socket as soon as its answer has
 * *ended*, even with bytes of it still queued in the socket: a 24 MB answer from memory is cut
 * (found by tests/faults/server/drain.test.ts). Upgraded sockets (realtime) are left to
 * realtime's own drain.
 */
export function trackConnections(server: Server): {
  /** Stops listening; resolves once every connection has closed. */
  stopListening(): Promise<void>;
  /** Ends the connections with no answer in progress and nothing left to write. */
  endIdle(): void;
} {
  const sockets = new Set<Socket>();
  const upgraded = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (_req, socket: Socket) => upgraded.add(socket));
  return {
    stopListening: () =>
      new Promise((resolve) => {
        // net.Server's close: stops accepting, calls back when the last connection is gone,
        // without http.Server's pre-close sweep of "idle" sockets.
        NetServer.prototype.close.call(server, () => resolve());
      }),
    endIdle() {
      for (const socket of sockets) {
        if (upgraded.has(socket) || socket.writableEnded) continue;
        const answer = (socket as Socket & { _httpMessage?: { finished: boolean } | null })
          ._httpMessage;
        if ((!answer || answer.finished) && socket.writableLength === 0) socket.end();
      }
    },
  };
}

/** Runs the drain; resolves once the process may exit (the caller exits). */
export async function drain(o: DrainOptions, signal: string): Promise<'drained' | 'timed out'> {
  const started = performance.now();
  const left = () => Math.max(0, o.timeoutMs - (performance.now() - started));
  o.health.startDraining();
  o.logger.info(`${signal}: draining (readyz 503; up to ${o.timeoutMs / 1000} s)`);
  if (o.delayMs > 0) await sleep(Math.min(o.delayMs, left()));

  const connections = o.connections;
  const httpClosed = connections ? connections.stopListening() : Promise.resolve();
  // Keep-alive connections end once idle; those whose answer is being written, after it.
  connections?.endIdle();
  const idleSweep = connections ? setInterval(() => connections.endIdle(), 100) : null;
  const jobsClosed = Promise.all(
    o.jobs.map((j) =>
      j.close().catch((error: unknown) => o.logger.error(`job queue close: ${String(error)}`)),
    ),
  );
  const handBackAt = left() - Math.min(HAND_BACK_RESERVE_MS, o.timeoutMs / 4);
  const handBackTimer = setTimeout(
    () => {
      for (const j of o.jobs)
        j.handBack?.().then(
          (n) => {
            if (n > 0) o.logger.warn(`${n} job(s) still running handed back to the queue`);
          },
          (error: unknown) => o.logger.error(`job hand-back: ${String(error)}`),
        );
    },
    Math.max(0, handBackAt),
  );
  void jobsClosed.then(() => clearTimeout(handBackTimer));
  const steps = Promise.all([httpClosed, o.realtime?.drain(), jobsClosed]);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), left());
  });
  let outcome = await Promise.race([steps.then(() => 'drained' as const), deadline]);
  if (idleSweep) clearInterval(idleSweep);
  if (outcome === 'drained') {
    outcome = await Promise.race([
      o.close().then(
        () => 'drained' as const,
        (error: unknown) => {
          o.logger.error(`close: ${String(error)}`);
          return 'drained' as const;
        },
      ),
      deadline,
    ]);
  }
  clearTimeout(timer);
  clearTimeout(handBackTimer);
  if (outcome === 'timed out') {
    o.logger.warn(`drain did not finish within ${o.timeoutMs / 1000} s: cutting what is left`);
    o.http?.closeAllConnections();
  }
  if (o.healthServer) {
    o.healthServer.closeAllConnections();
    o.healthServer.close();
  }
  o.logger.info(
    `${signal}: ${outcome} in ${((performance.now() - started) / 1000).toFixed(1)} s, exiting`,
  );
  return outcome;
}

/** SIGTERM and SIGINT run the drain once, then exit 0; a second signal exits at once. */
export function drainOnSignals(o: DrainOptions): void {
  if (o.http && !o.connections) o.connections = trackConnections(o.http);
  const exit = o.exit ?? ((code: number) => process.exit(code));
  let draining = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (draining) {
      o.logger.warn(`${signal} again: exiting now`);
      exit(0);
      return;
    }
    draining = true;
    void drain(o, signal).finally(() => exit(0));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
