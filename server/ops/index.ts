/**
 * Operations of one process (docs/deploy.md): its role, health and readiness, the SIGTERM
 * drain, Prometheus metrics and the log. server/main.ts reads the configuration first (bad
 * values stop the start before anything listens), then wires these around the backend.
 */
import type { Server } from 'node:http';
import type { ServerType } from '@hono/node-server';
import type { Backend } from '../backend';
import { drainOnSignals } from './drain';
import { createHealth, type Health } from './health';
import { createOpsFront, serveOpsOnly } from './http';
import { createLogger, parseLogFormat, type LogFormat, type Logger } from './log';
import { createMetrics, type OpsMetrics } from './metrics';
import { dutiesOf, parseHealthPort, parseRole, type Role, type RoleDuties } from './role';
import type { NodeFastPath } from '../rest/node';

export { dutiesOf, parseRole, type Role } from './role';
export type { Logger } from './log';

export interface OpsConfig {
  role: Role;
  duties: RoleDuties;
  /** The worker's port for /healthz, /readyz, /metrics. */
  healthPort: number;
  logFormat: LogFormat;
  metricsToken: string | undefined;
  drainDelayMs: number;
  drainTimeoutMs: number;
}

function parseMs(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const value = env[name]?.trim();
  if (!value) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new Error(`${name} must be an integer from 0 to ${max} (milliseconds), got "${value}"`);
  return n;
}

/** Throws with a message naming the variable when one is not valid. */
export function loadOpsConfig(env: NodeJS.ProcessEnv = process.env): OpsConfig {
  const role = parseRole(env);
  const drainTimeoutMs = parseMs(env, 'DRAIN_TIMEOUT_MS', 30_000, 600_000);
  const drainDelayMs = parseMs(env, 'DRAIN_DELAY_MS', 0, 600_000);
  if (drainDelayMs >= drainTimeoutMs && drainTimeoutMs > 0)
    throw new Error(
      `DRAIN_DELAY_MS (${drainDelayMs}) must be shorter than DRAIN_TIMEOUT_MS (${drainTimeoutMs})`,
    );
  return {
    role,
    duties: dutiesOf(role),
    healthPort: parseHealthPort(env),
    logFormat: parseLogFormat(env),
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    drainDelayMs,
    drainTimeoutMs,
  };
}

export interface Ops {
  config: OpsConfig;
  logger: Logger;
  health: Health;
  metrics: OpsMetrics;
  /** Hand to serveHttp({ front }). */
  front: NodeFastPath;
  /** A worker: /healthz, /readyz, /metrics on HEALTH_PORT. */
  serveHealthPort(hostname: string): Promise<{ server: Server; port: number }>;
  /** SIGTERM/SIGINT drain the process, then exit 0. */
  drainOnSignals(servers: { http?: ServerType; healthServer?: Server }): void;
}

export function createOps(config: OpsConfig, backend: Backend, logger: Logger): Ops {
  const health = createHealth({ db: backend.db, store: backend.store });
  const metrics = createMetrics({
    db: backend.db,
    realtimeConnections: config.duties.http
      ? () => backend.realtime.server.stats().connections
      : undefined,
  });
  const options = { logger, health, metrics, metricsToken: config.metricsToken };
  return {
    config,
    logger,
    health,
    metrics,
    front: createOpsFront(options),
    serveHealthPort: (hostname) => serveOpsOnly(options, { port: config.healthPort, hostname }),
    drainOnSignals: ({ http, healthServer }) =>
      drainOnSignals({
        health,
        logger,
        // serveHttp serves HTTP/1.1 (node:http), never HTTP/2.
        http: http as Server | undefined,
        healthServer,
        realtime: config.duties.http ? backend.realtime.server : undefined,
        jobs: [backend.processing, backend.stems, backend.account],
        close: () => backend.close(),
        delayMs: config.drainDelayMs,
        timeoutMs: config.drainTimeoutMs,
      }),
  };
}

export { createLogger };

/** Runs a configuration loader; a bad value prints one clear line and exits 1. */
export function orExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    console.error(`Soundloft: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
