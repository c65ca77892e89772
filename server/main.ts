/**
 * `npm start`: builds the app when its sources changed, opens and migrates the database, then
 * serves the app and the Supabase-compatible API on one origin.
 */
import { startBackend } from './backend';
import { ensureBuild } from './build/ensure-build';
import { ROOT_DIR, loadConfig } from './config';
import { createApp } from './http/app';
import { serveHttp } from './http/serve';
import { productionGate } from './production-check';
import { DEMO_PASSWORD } from './seed';

// First: `_FILE` secrets, and production refuses to start unsafe (`--check`: only the verdict).
productionGate();
const config = loadConfig();
if (!config.skipBuild) {
  const build = ensureBuild(ROOT_DIR, config.distDir);
  if (build.built) console.log(`Soundloft: build ready in ${(build.ms / 1000).toFixed(1)} s`);
}

const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${config.port}`;
const backend = await startBackend(process.env, {
  publicUrl,
  localUrl: `http://127.0.0.1:${config.port}`,
  log: (m) => console.log(`Soundloft: ${m}`),
});
if (backend.seededMs !== null) {
  console.log(`Soundloft: demo catalogue seeded in ${(backend.seededMs / 1000).toFixed(1)} s`);
}
const app = createApp({
  distDir: config.distDir,
  mounts: backend.mounts,
  devConfig: backend.devConfig,
});
const { server, port } = await serveHttp(app.fetch, {
  port: config.port,
  hostname: config.host,
  fastPath: backend.fastPath,
});
const url = process.env.PUBLIC_URL ?? `http://localhost:${port}`;
console.log(
  [
    `Soundloft is running at ${url}/`,
    `  database     ${backend.db.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite (${process.env.DATA_DIR || './.data'})`}`,
    `  API URL      ${url}  (/rest/v1)`,
    `  anon key     ${backend.keys.anonKey}`,
    `  service key  ${backend.keys.serviceRoleKey}`,
    `  mailbox      ${url}/_dev/mail${process.env.SMTP_URL ? ' (off: SMTP_URL is set)' : ''}`,
    `  payments     ${backend.stripeSandbox ? `local Stripe sandbox (no money moves; test card 4242 4242 4242 4242, promo code WELCOME50)` : 'Stripe (STRIPE_SECRET_KEY)'}`,
    ...(backend.demoAccounts.length ? [`  demo accounts (password: ${DEMO_PASSWORD})`] : []),
    ...backend.demoAccounts.map((a) => `    ${a.role.padEnd(9)} ${a.email}`),
  ].join('\n'),
);
// Supabase Realtime's websocket on the same port (the HTTP upgrade of /realtime/v1/websocket).
backend.realtime.attach(server);

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  server.close(() => void backend.close().finally(() => process.exit(0)));
  setTimeout(() => process.exit(0), 3000).unref();
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
