/**
 * The real app server (front end plus backend) on a free port, for benches that load pages.
 * Seeding is on when asked (the signed-in pages need the demo catalogue and accounts).
 */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { startBackend } from '../server/backend';
import { createApp } from '../server/http/app';

export interface AppServer {
  base: string;
  close: () => Promise<void>;
}

export async function startAppServer(distDir: string, { seed = false } = {}): Promise<AppServer> {
  let handle: (request: Request) => Response | Promise<Response> = () =>
    new Response(null, { status: 503 });
  const server = serve({ fetch: (request) => handle(request), port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const backend = await startBackend(
    // Edge functions reach the backend at SUPABASE_URL (the request handler above does not pass
    // the socket they would otherwise take the address from).
    { ...process.env, DATA_DIR: 'memory', SEED: seed ? '' : 'none', SUPABASE_URL: base },
    { publicUrl: base, log: () => undefined },
  );
  backend.realtime.attach(server);
  const app = createApp({ distDir, mounts: backend.mounts, devConfig: backend.devConfig });
  handle = (request) => app.fetch(request);
  return {
    base,
    close: async () => {
      server.close();
      await backend.close();
    },
  };
}
