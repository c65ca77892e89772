/**
 * `npm start`: builds the app when its sources changed, opens and migrates the database, then
 * serves the app and the Supabase-compatible API on one origin. SOUNDLOFT_ROLE=web|worker splits
 * that across processes (server/ops, docs/deploy.md).
 */
import { startBackend } from './backend';
import { ensureBuild } from './build/ensure-build';
import { ROOT_DIR, loadConfig } from './config';
import { createApp } from './http/app';
import { serveHttp } from './http/serve';
import { createLogger, createOps, loadOpsConfig, orExit } from './ops';
import { DEMO_PASSWORD } from './seed';

const config = orExit(loadConfig);
// Role, logs, drain, metrics: a bad value stops the start here, before anything listens.
const opsConfig = orExit(loadOpsConfig);
const logger = createLogger(opsConfig.logFormat);
if (opsConfig.duties.buildsFrontEnd && !config.skipBuild) {
  const build = ensureBuild(ROOT_DIR, config.distDir);
  if (build.built) logger.info(`build ready in ${(build.ms / 1000).toFixed(1)} s`);
}

const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${config.port}`;
const backend = await startBackend(process.env, {
  publicUrl,
  localUrl: `http://127.0.0.1:${config.port}`,
  log: (m) => logger.info(m),
  role: opsConfig.role,
});
if (backend.seededMs !== null) {
  logger.info(`demo catalogue seeded in ${(backend.seededMs / 1000).toFixed(1)} s`);
}
const ops = createOps(opsConfig, backend, logger);

if (!opsConfig.duties.http) {
  // A worker: the job queues run in startBackend; HTTP is only the probes and /metrics.
  const health = await ops.serveHealthPort(config.host);
  logger.info(`worker running (health, readiness and metrics on port ${health.port})`, {
    role: opsConfig.role,
    healthPort: health.port,
  });
  ops.drainOnSignals({ healthServer: health.server });
} else {
  const app = createApp({
    distDir: config.distDir,
    mounts: backend.mounts,
    devConfig: backend.devConfig,
  });
  const { server, port } = await serveHttp(app.fetch, {
    port: config.port,
    hostname: config.host,
    fastPath: backend.fastPath,
    front: ops.front,
  });
  const url = process.env.PUBLIC_URL ?? `http://localhost:${port}`;
  const database =
    backend.db.kind === 'postgres'
      ? 'PostgreSQL (DATABASE_URL)'
      : `PGlite (${process.env.DATA_DIR || './.data'})`;
  if (logger.format === 'json') {
    // No keys in a production log.
    logger.info('listening', { url, port, role: opsConfig.role, database });
  } else {
    console.log(
      [
        `Soundloft is running at ${url}/`,
        ...(opsConfig.role === 'all' ? [] : [`  role         ${opsConfig.role} (no jobs)`]),
        `  database     ${database}`,
        `  API URL      ${url}  (/rest/v1)`,
        `  anon key     ${backend.keys.anonKey}`,
        `  service key  ${backend.keys.serviceRoleKey}`,
        `  mailbox      ${url}/_dev/mail${process.env.SMTP_URL ? ' (off: SMTP_URL is set)' : ''}`,
        `  payments     ${backend.stripeSandbox ? `local Stripe sandbox (no money moves; test card 4242 4242 4242 4242, promo code WELCOME50)` : 'Stripe (STRIPE_SECRET_KEY)'}`,
        ...(backend.demoAccounts.length ? [`  demo accounts (password: ${DEMO_PASSWORD})`] : []),
        ...backend.demoAccounts.map((a) => `    ${a.role.padEnd(9)} ${a.email}`),
      ].join('\n'),
    );
  }
  // Supabase Realtime's websocket on the same port (the HTTP upgrade of /realtime/v1/websocket).
  backend.realtime.attach(server);
  ops.drainOnSignals({ http: server });
}
