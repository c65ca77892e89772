/**
 * The embedded Realtime: Supabase Realtime's websocket protocol (server.ts) fed by the
 * database's own change notifications (changes.ts). docs/realtime.md.
 */
import type { JwtSecrets } from '../keys/keys';
import type { Server } from 'node:http';
import type { ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Database } from '../db/database';
import { ChangeStream } from './changes';
import { localCluster, startPgCluster, type Cluster, type ClusterOptions } from './cluster';
import { createRealtimeApp } from './http';
import { REALTIME_PATH, RealtimeServer, type RealtimeLimits } from './server';
import { closeBannedSockets } from './sanctions';
import { closeEndedSessions } from './sessions';

export { REALTIME_PATH, DEFAULT_LIMITS, type RealtimeLimits, type RealtimeStats } from './server';

export interface Realtime {
  server: RealtimeServer;
  changes: ChangeStream;
  /** The other nodes on the same PostgreSQL (local-only on PGlite). */
  cluster: Cluster;
  /** The REST endpoints (`/api/broadcast`), to mount at `/realtime/v1`. */
  http: Hono;
  /** Serves the websocket path on an HTTP server (its `upgrade` event). */
  attach(http: ServerType): void;
  close(): Promise<void>;
}

/** Positive integers of the environment, by variable name → option key. */
function positiveInts<K extends string>(
  env: NodeJS.ProcessEnv,
  names: Record<string, K>,
): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const [name, key] of Object.entries(names) as [string, K][]) {
    const value = Number(env[name]);
    if (env[name] && Number.isInteger(value) && value > 0) out[key] = value;
  }
  return out;
}

/** Limits from the environment (REALTIME_MAX_CONNECTIONS, ...), defaults otherwise. */
export function limitsFromEnv(env: NodeJS.ProcessEnv): Partial<RealtimeLimits> {
  return positiveInts<keyof RealtimeLimits>(env, {
    REALTIME_MAX_CONNECTIONS: 'maxConnections',
    REALTIME_MAX_CONNECTIONS_PER_USER: 'maxConnectionsPerUser',
    REALTIME_MAX_CHANNELS_PER_CONNECTION: 'maxChannelsPerConnection',
    REALTIME_HEARTBEAT_TIMEOUT_MS: 'heartbeatTimeoutMs',
  });
}

/** The node heartbeat and expiry from the environment (REALTIME_NODE_HEARTBEAT_MS, ...). */
export function clusterOptionsFromEnv(env: NodeJS.ProcessEnv): ClusterOptions {
  return positiveInts<keyof ClusterOptions>(env, {
    REALTIME_NODE_HEARTBEAT_MS: 'heartbeatMs',
    REALTIME_NODE_EXPIRY_MS: 'expiryMs',
  });
}

export async function startRealtime(opts: {
  db: Database;
  /** JWT_SECRET, or with JWT_SECRET_PREVIOUS during a rotation (verificationSecrets). */
  jwtSecret: JwtSecrets;
  limits?: Partial<RealtimeLimits>;
  /** Several nodes on one PostgreSQL: heartbeat and expiry (defaults 5 s and 15 s). */
  cluster?: ClusterOptions;
}): Promise<Realtime> {
  const changes = new ChangeStream(opts.db);
  await changes.start();
  let server: RealtimeServer | null = null;
  // PGlite is one process: nothing to fan out, presence stays in memory (docs/realtime.md).
  const cluster =
    opts.db.kind === 'postgres'
      ? await startPgCluster(opts.db, () => server?.trackedPresences() ?? [], opts.cluster)
      : localCluster();
  server = new RealtimeServer({
    jwtSecret: opts.jwtSecret,
    db: opts.db,
    changes,
    limits: opts.limits,
    cluster,
  });
  const started = server;
  const stopBans = await closeBannedSockets(opts.db, started);
  const stopSessions = await closeEndedSessions(opts.db, started);
  return {
    server,
    changes,
    cluster,
    http: createRealtimeApp({ db: opts.db, jwtSecret: opts.jwtSecret, server: started }),
    attach(http) {
      (http as Server).on('upgrade', (req, socket, head) => {
        if (!started.handleUpgrade(req, socket, head)) socket.destroy();
      });
    },
    async close() {
      await stopBans();
      await stopSessions();
      await started.close();
      await cluster.close();
      await changes.close();
    },
  };
}

export { REALTIME_PATH as REALTIME_WEBSOCKET_PATH };
