/**
 * The Supabase-compatible backend of one process: the database (migrated), the keys, and the
 * HTTP modules mounted under their Supabase paths. `npm start`, the tests and the benchmarks all
 * start it the same way.
 */
import type { Hono } from 'hono';
import { createAuthApp } from './auth';
import {
  DEFAULT_ADMIN_EMAILS,
  parseAdminEmails,
  parseAdminRequireMfa,
  syncAdmins,
  syncAdminRequireMfa,
} from './db/admins';
import type { Database } from './db/database';
import { migrate, openAndMigrate } from './db/migrate';
import { loadKeys, verificationSecrets, type Keys } from './keys';
import type { AppConfig } from './http/app';
import { createDevMailApp, createMailer, type Mailer } from './mail';
import { startMailOutbox, type MailOutbox } from './mail/outbox';
import { createDevClockApp, renderCopyrightMail, startCopyrightJobs } from './copyright';
import type { JobLoop } from './lib/job-loop';
import { createFunctionsApp } from './functions';
import { clusterOptionsFromEnv, limitsFromEnv, startRealtime, type Realtime } from './realtime';
import { createRestApp } from './rest';
import { parseTxEnd } from './rest/tx-end';
import { aggregatesEnabledFromEnv } from './rest/aggregates';
import type { NodeFastPath } from './rest/node';
import { DEMO_PASSWORD, seedDemoCatalogue, type SeedAccount } from './seed';
import { createStorageApp, objectStoreFromEnv, type ObjectStore } from './storage';
import { createStripeSandboxServer, sandboxKeys, type StripeSandboxServer } from './stripe-sandbox';
import { startTrackProcessing, type TrackProcessing } from './processing';
import { startStemJobs, type StemJobs } from './stems/jobs';
import { createPlayEvidence, type PlayEvidence } from './plays/evidence';
import { startHeldPlayRelease, type HeldPlayRelease } from './plays/held-plays';
import {
  isProduction,
  paymentsOff,
  refuseDemoPasswords,
  refuseTestClock,
  seedMode,
} from './production-check';
import { dutiesOf, type Role } from './ops/role';
import { startInsightsRollups } from './insights/rollups';
import { notOnThisNode } from './ops/idle-jobs';
import { restSettingsFromEnv } from './rest/schemas';
import { startAccountJobs, stripeCanceller, type AccountJobs } from './account';

export interface Backend {
  db: Database;
  keys: Keys;
  /** Files of /storage/v1: S3 when S3_BUCKET is set, else DATA_DIR/storage (or memory). */
  store: ObjectStore;
  /** The upload pipeline's job runner (docs/upload.md). */
  processing: TrackProcessing;
  stems: StemJobs;
  /** Data exports and account deletions (docs/privacy-rights.md). */
  account: AccountJobs;
  /** What the storage app served to whom: the evidence of plays (docs/plays.md). */
  plays: PlayEvidence;
  /** Outgoing mail: SMTP_URL, or the dev mailbox at /_dev/mail. */
  mailer: Mailer;
  /** The decision e-mails' sender (server/mail/outbox.ts); null on a web node. */
  mailOutbox: MailOutbox | null;
  /** `/realtime/v1/websocket`: attach it to the HTTP server (`realtime.attach(server)`). */
  realtime: Realtime;
  /** Sub-apps by the path they are mounted at. */
  mounts: { path: string; app: Hono }[];
  /**
   * `/rest/v1` answered straight from node:http for plain reads (server/rest/node.ts): give it
   * to serveHttp; requests it leaves go to the mounts as usual.
   */
  fastPath: NodeFastPath;
  /** The demo accounts that exist (seeded now or on an earlier start); empty with SEED=none. */
  demoAccounts: SeedAccount[];
  /** How long this start spent seeding the demo catalogue, if it did. */
  seededMs: number | null;
  /** The local payment sandbox (no STRIPE_SECRET_KEY), or null when real Stripe is used. */
  stripeSandbox: StripeSandboxServer | null;
  /** `GET /_dev/config` payload, or null outside development. */
  devConfig: { url: string; anonKey: string } | null;
  /** `GET /_app/config` payload, in every mode (server/http/app.ts). */
  appConfig: AppConfig;
  close(): Promise<void>;
}

/** The demo accounts of an earlier seeding that still exist, so `npm start` can print them. */
async function existingDemoAccounts(db: Database, adminEmails: string[]): Promise<SeedAccount[]> {
  const candidates: SeedAccount[] = [
    ...(adminEmails[0]
      ? [{ role: 'admin' as const, email: adminEmails[0], password: DEMO_PASSWORD }]
      : []),
    { role: 'artist', email: 'artist@soundloft.local', password: DEMO_PASSWORD },
    { role: 'listener', email: 'listener@soundloft.local', password: DEMO_PASSWORD },
    { role: 'premium', email: 'premium@soundloft.local', password: DEMO_PASSWORD },
  ];
  const { rows } = await db.query<{ email: string }>(
    'select lower(email) as email from auth.users where lower(email) = any ($1::text[])',
    [candidates.map((c) => c.email.toLowerCase())],
  );
  const found = new Set(rows.map((r) => r.email));
  return candidates.filter((c) => found.has(c.email.toLowerCase()));
}

/** PROCESSING_WORKERS: processing worker threads, default 2 (0: this instance processes nothing). */
function parseWorkers(value: string | undefined, name = 'PROCESSING_WORKERS'): number {
  if (value === undefined || value.trim() === '') return 2;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 64)
    throw new Error(`${name} must be an integer from 0 to 64, got "${value}"`);
  return n;
}

export async function startBackend(
  env: NodeJS.ProcessEnv = process.env,
  {
    publicUrl,
    localUrl = publicUrl,
    log = () => undefined,
    database,
    role = 'all',
  }: {
    publicUrl: string;
    /** SOUNDLOFT_ROLE (server/ops/role.ts): `web` runs no jobs, sweeps nor seeding. */
    role?: Role;
    /**
     * An open database owned by the caller (the test suites: a fresh test database), migrated
     * here and left open by close(); default: DATABASE_URL / DATA_DIR.
     */
    database?: Database;
    /** How this process reaches itself (the sandbox's webhooks); default publicUrl. */
    localUrl?: string;
    log?: (message: string) => void;
  },
): Promise<Backend> {
  const keys = loadKeys(env);
  const db = database ?? (await openAndMigrate(env));
  if (database) await migrate(database);
  const closeDb = () => (database ? Promise.resolve() : db.close());
  let processing: TrackProcessing | null = null;
  let stems: StemJobs | null = null;
  let heldPlays: HeldPlayRelease | null = null;
  let account: AccountJobs | null = null;
  let mailOutbox: MailOutbox | null = null;
  let copyright: JobLoop | null = null;
  try {
    const production = isProduction(env);
    // In production no address is an admin unless ADMIN_EMAILS names it (docs/production.md).
    const adminEmails = parseAdminEmails(
      env.ADMIN_EMAILS ?? (production ? '' : DEFAULT_ADMIN_EMAILS),
    );
    await syncAdmins(db, adminEmails);
    // Admins without two-factor sign-in lose admin powers (docs/account.md); on in production.
    const adminRequireMfa = parseAdminRequireMfa(env.ADMIN_REQUIRE_MFA, production);
    if (adminRequireMfa === null)
      throw new Error(`ADMIN_REQUIRE_MFA may be "on" or "off", got "${env.ADMIN_REQUIRE_MFA}"`);
    await syncAdminRequireMfa(db, adminRequireMfa);
    // PostgREST's db-schemas, db-plan-enabled, db-tx-end and db-aggregates-enabled
    // (docs/rest-api.md): Soundloft keeps public only, no plans, commit and no aggregates unless
    // REST_DB_SCHEMAS / REST_DB_PLAN_ENABLED / REST_DB_TX_END / REST_DB_AGGREGATES_ENABLED say
    // otherwise.
    const rest = createRestApp({
      db,
      keys,
      ...restSettingsFromEnv(env),
      txEnd: parseTxEnd(env.REST_DB_TX_END),
      aggregatesEnabled: aggregatesEnabledFromEnv(env.REST_DB_AGGREGATES_ENABLED),
    });
    await rest.ready;
    const store = objectStoreFromEnv(env); // S3_* (docs/object-storage.md), else DATA_DIR/storage
    const duties = dutiesOf(role);
    // A web node claims no job and sweeps nothing (the processing loop sweeps storage garbage
    // even with 0 workers): the queues are the workers' (docs/deploy.md).
    const startProcessing = duties.jobs ? startTrackProcessing : notOnThisNode;
    const startStems = duties.jobs ? startStemJobs : notOnThisNode;
    processing = startProcessing({
      db,
      store,
      workers: parseWorkers(env.PROCESSING_WORKERS),
      log,
    });
    // Stem separations (docs/stems.md): one at a time by default, or delegated to SEPARATOR_URL.
    stems = startStems({
      db,
      store,
      workers: parseWorkers(env.STEMS_WORKERS ?? '1', 'STEMS_WORKERS'),
      separatorUrl: env.SEPARATOR_URL?.trim() || undefined,
      separatorKey: env.SEPARATOR_KEY?.trim() || undefined,
      publicUrl,
      jwtSecret: keys.jwtSecret,
      log,
    });
    const mailer = createMailer(env);
    // The e-mails the database queued (copyright, moderation; docs/trust-and-safety.md § The
    // mail outbox): sent by the nodes that run jobs.
    mailOutbox = duties.jobs
      ? await startMailOutbox({ db, mailer, publicUrl, renderTemplate: renderCopyrightMail })
      : null;
    // Copyright deadlines (docs/trust-and-safety.md § Deadlines).
    const copyrightJobs = (duties.jobs ? startCopyrightJobs : notOnThisNode)({ db, log });
    copyright = copyrightJobs;
    const plays = createPlayEvidence(db);
    // A new account's held listens, released past its first hour (docs/plays.md): job nodes.
    heldPlays = duties.jobs ? startHeldPlayRelease({ db, log }) : null;
    // First start on an empty database: the demo catalogue (after syncAdmins, so the demo admin
    // is an admin) when SEED=demo, the default outside production; SEED=none starts empty.
    // Production never seeds (server/production-check.ts refuses SEED=demo) and refuses a
    // database where a demo account still has the public demo password.
    let seededMs: number | null = null;
    let demoAccounts: SeedAccount[] = [];
    if (production) await refuseDemoPasswords(db, adminEmails);
    if (production) await refuseTestClock(db);
    else if (seedMode(env) === 'demo' && duties.seeds) {
      const seed = await seedDemoCatalogue(db, store, { adminEmails, log });
      if (seed.seeded) seededMs = seed.ms;
      demoAccounts = seed.seeded ? seed.accounts : await existingDemoAccounts(db, adminEmails);
    } else if (seedMode(env) === 'demo') {
      // A web node never seeds (a worker does): it names the demo accounts that exist.
      demoAccounts = await existingDemoAccounts(db, adminEmails);
    }
    // Insights' daily roll-ups (docs/insights.md): worker nodes only.
    const insights = duties.jobs ? startInsightsRollups(db, { log }) : null;
    // After seeding: the demo catalogue's rows are not streamed to anyone.
    const realtime = await startRealtime({
      db,
      jwtSecret: verificationSecrets(keys),
      limits: limitsFromEnv(env),
      cluster: clusterOptionsFromEnv(env),
    });
    // Payments: Stripe itself with STRIPE_SECRET_KEY, else the local sandbox (docs/payments.md),
    // never in production; PAYMENTS=off: neither (checkout answers 503).
    const stripeSandbox =
      env.STRIPE_SECRET_KEY || production || paymentsOff(env)
        ? null
        : createStripeSandboxServer({
            publicUrl,
            keys: sandboxKeys(keys.jwtSecret),
            webhookUrl: `${localUrl.replace(/\/+$/, '')}/functions/v1/stripe-webhook`,
            dataDir: env.DATA_DIR?.trim() || './.data',
          });
    const functionsEnv = stripeSandbox
      ? {
          ...env,
          STRIPE_SECRET_KEY: stripeSandbox.keys.secretKey,
          STRIPE_WEBHOOK_SECRET: stripeSandbox.keys.webhookSecret,
        }
      : env;
    // Data exports and account deletions (docs/privacy-rights.md): the workers' too.
    account = (duties.jobs ? startAccountJobs : notOnThisNode)({
      db,
      store,
      mailer,
      jwtSecret: keys.jwtSecret,
      publicUrl,
      cancelSubscription:
        functionsEnv.STRIPE_SECRET_KEY && !paymentsOff(env)
          ? stripeCanceller({
              ...functionsEnv,
              ...(stripeSandbox ? { STRIPE_API_URL: localUrl } : {}),
            })
          : null,
      log,
    });
    const mounts: Backend['mounts'] = [
      { path: '/auth/v1', app: createAuthApp({ db, keys, mailer, env, publicUrl }) },
      { path: '/rest/v1', app: rest },
      { path: '/realtime/v1', app: realtime.http },
      {
        path: '/storage/v1',
        app: createStorageApp({
          db,
          keys,
          store,
          dataDir: env.DATA_DIR?.trim() || './.data',
          onSignedRead: plays.onSignedRead,
        }),
      },
      {
        path: '/functions/v1',
        app: createFunctionsApp({
          db,
          keys,
          env: functionsEnv,
          localStripeApi: stripeSandbox !== null,
        }),
      },
    ];
    if (stripeSandbox) {
      mounts.push({ path: '/v1', app: stripeSandbox.api });
      mounts.push({ path: '/_stripe', app: stripeSandbox.pages });
    }
    // The dev mailbox shows every sign-in link: never on a production server.
    if (!production) mounts.push({ path: '/_dev', app: createDevMailApp(mailer) });
    // The test clock (tests move copyright deadlines without sleeping): never in production.
    if (!production)
      mounts.push({
        path: '/_dev',
        app: createDevClockApp(db, () => void mailOutbox?.drain().catch(() => 0)),
      });
    return {
      db,
      keys,
      store,
      processing,
      stems,
      account,
      plays,
      mailer,
      mailOutbox,
      mounts,
      fastPath: rest.nodeListener('/rest/v1'),
      realtime,
      demoAccounts,
      seededMs,
      stripeSandbox,
      devConfig: production ? null : { url: publicUrl, anonKey: keys.anonKey },
      appConfig: { url: production ? null : publicUrl, anonKey: keys.anonKey },
      close: async () => {
        stripeSandbox?.close();
        await realtime.close();
        await account?.close();
        await insights?.close();
        await copyright?.close();
        await stems?.close();
        await processing?.close();
        await heldPlays?.close();
        await mailOutbox?.close();
        await plays.settled();
        await closeDb();
      },
    };
  } catch (error) {
    await account?.close();
    await mailOutbox?.close();
    await copyright?.close();
    await stems?.close();
    await processing?.close();
    await heldPlays?.close();
    await closeDb();
    throw error;
  }
}
