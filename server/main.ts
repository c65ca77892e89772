/**
 * `npm start`: builds the app when its sources changed, then serves it and the
 * Supabase-compatible API on one origin.
 */
import { serve } from '@hono/node-server';
import { ensureBuild } from './build/ensure-build';
import { ROOT_DIR, loadConfig } from './config';
import { createApp } from './http/app';

const config = loadConfig();
if (!config.skipBuild) {
  const build = ensureBuild(ROOT_DIR, config.distDir);
  if (build.built) console.log(`Soundloft: build ready in ${(build.ms / 1000).toFixed(1)} s`);
}

const app = createApp({ distDir: config.distDir });
const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  console.log(`Soundloft is running at http://localhost:${info.port}/`);
});

const shutdown = () => {
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
