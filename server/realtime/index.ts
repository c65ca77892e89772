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
import { createRealtimeApp } from './http';
import { REALTIME_PATH, RealtimeServer, type RealtimeLimits } from './server';

export { REALTIME_PATH, DEFAULT_LIMITS, type RealtimeLimits, type RealtimeStats } from './server';

export interface Realtime {
  server: RealtimeServer;
  changes: ChangeStream;
  /** The REST endpoints (`/api/broadcast`), to mount at `/realtime/v1`. */
  http: Hono;
  /** Serves the websocket path on an HTTP server (its `upgrade` event). */
  attach(http: ServerType): void;
  close(): Promise<void>;
}

/** Limits from the environment (REALTIME_MAX_CONNECTIONS, ...), defaults otherwise. */
export function limitsFromEnv(env: NodeJS.ProcessEnv): Partial<RealtimeLimits> {
  const out: Partial<RealtimeLimits> = {};
  const read = (name: string, key: keyof RealtimeLimits) => {
    const value = Number(env[name]);
    if (env[name] && Number.isInteger(value) && value > 0) out[key] = value;
  };
  read('REALTIME_MAX_CONNECTIONS', 'maxConnections');
  read('REALTIME_MAX_CONNECTIONS_PER_USER', 'maxConnectionsPerUser');
  read('REALTIME_MAX_CHANNELS_PER_CONNECTION', 'maxChannelsPerConnection');
  read('REALTIME_HEARTBEAT_TIMEOUT_MS', 'heartbeatTimeoutMs');
  return out;
}

export async function startRealtime(opts: {
  db: Database;
  /** JWT_SECRET, or with JWT_SECRET_PREVIOUS during a rotation (verificationSecrets). */
  jwtSecret: JwtSecrets;
  limits?: Partial<RealtimeLimits>;
}): Promise<Realtime> {
  const changes = new ChangeStream(opts.db);
  await changes.start();
  const server = new RealtimeServer({
    jwtSecret: opts.jwtSecret,
    db: opts.db,
    changes,
    limits: opts.limits,
  });
  return {
    server,
    changes,
    http: createRealtimeApp({ db: opts.db, jwtSecret: opts.jwtSecret, server }),
    attach(http) {
      (http as Server).on('upgrade', (req, socket, head) => {
        if (!server.handleUpgrade(req, socket, head)) socket.destroy();
      });
    },
    async close() {
      await server.close();
      await changes.close();
    },
  };
}

export { REALTIME_PATH as REALTIME_WEBSOCKET_PATH };
