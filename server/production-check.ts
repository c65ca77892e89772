/**
 * Production fails safe (docs/production.md). `server/main.ts` calls `productionGate` before
 * anything else: it resolves the `_FILE` secrets into the environment (the one place that does),
 * and with `NODE_ENV=production` refuses to start, with one message naming every missing or
 * unsafe setting, unless the server is configured to be exposed. `npm start -- --check` prints the
 * same verdict and exits (0: would start, 1: would refuse) without opening anything.
 */
import { readFileSync } from 'node:fs';
import bcrypt from 'bcryptjs';
import type { Queryable } from './db/database';
import { DEFAULT_ADMIN_EMAILS, parseAdminRequireMfa } from './db/admins';
import { DEV_JWT_SECRET } from './keys/keys';
import { DEMO_PASSWORD } from './seed/content/social';

type Env = Record<string, string | undefined>;

/**
 * Settings that may come from a file instead (`NAME_FILE=/run/secrets/name`, the convention of
 * container secrets: Docker, Kubernetes, systemd credentials). The file's content, without its
 * final newline, becomes `NAME`.
 */
export const FILE_SECRETS = [
  'JWT_SECRET',
  'JWT_SECRET_PREVIOUS',
  'DATABASE_URL',
  'SMTP_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'GOOGLE_CLIENT_SECRET',
  'SEPARATOR_KEY',
] as const;

/** The minimum length of JWT_SECRET (an HS256 key; Supabase asks the same). */
export const MIN_JWT_SECRET_LENGTH = 32;

const GENERATE = 'generate one with `openssl rand -base64 48`';

/** `NAME_FILE` → `NAME` for every FILE_SECRETS name; a problem per unreadable or doubled one. */
export function resolveSecretFiles(
  env: Env,
  read: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): { values: Env; problems: string[] } {
  const values: Env = {};
  const problems: string[] = [];
  for (const name of FILE_SECRETS) {
    const path = env[`${name}_FILE`]?.trim();
    if (!path) continue;
    if (env[name]?.trim()) {
      problems.push(`${name} and ${name}_FILE are both set: keep one`);
      continue;
    }
    try {
      values[name] = read(path).replace(/\r?\n$/, '');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      problems.push(`${name}_FILE (${path}) cannot be read: ${reason}`);
    }
  }
  return { values, problems };
}

export function isProduction(env: Env): boolean {
  return env.NODE_ENV === 'production';
}

/** `off` (any case) after trimming: MAIL=off, PAYMENTS=off. */
export function isOff(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'off';
}

/**
 * SEED: `demo` seeds the demo catalogue and its accounts on an empty database, `none` never.
 * Unset is `demo` in development (the README's quick start: `npm start` on a fresh machine
 * serves the demo) and `none` in production.
 */
export function seedMode(env: Env): 'demo' | 'none' {
  const value = env.SEED?.trim().toLowerCase();
  if (value === 'demo' || value === 'none') return value;
  return isProduction(env) ? 'none' : 'demo';
}

/** Payments are off (PAYMENTS=off): no checkout, the app shows a notice instead of upgrades. */
export function paymentsOff(env: Env): boolean {
  return isOff(env.PAYMENTS);
}

/** Every missing or unsafe setting of a production server (empty: it may start). */
export function productionProblems(env: Env): string[] {
  const problems: string[] = [];
  const set = (name: string) => Boolean(env[name]?.trim());

  const secret = env.JWT_SECRET?.trim() ?? '';
  if (!secret) problems.push(`JWT_SECRET is not set: ${GENERATE} (or use JWT_SECRET_FILE)`);
  else if (secret === DEV_JWT_SECRET)
    problems.push(`JWT_SECRET is the public development secret: ${GENERATE}`);
  else if (secret.length < MIN_JWT_SECRET_LENGTH)
    problems.push(
      `JWT_SECRET is ${secret.length} characters: it needs at least ${MIN_JWT_SECRET_LENGTH}; ${GENERATE}`,
    );
  const previous = env.JWT_SECRET_PREVIOUS?.trim();
  if (previous === DEV_JWT_SECRET)
    problems.push('JWT_SECRET_PREVIOUS is the public development secret: unset it');
  else if (previous && previous.length < MIN_JWT_SECRET_LENGTH)
    problems.push(`JWT_SECRET_PREVIOUS is shorter than ${MIN_JWT_SECRET_LENGTH} characters`);

  const publicUrl = env.PUBLIC_URL?.trim();
  if (!publicUrl) problems.push('PUBLIC_URL is not set: the https URL users reach the server at');
  else if (!/^https:\/\/[^/\s]+/i.test(publicUrl))
    problems.push(`PUBLIC_URL must be an https URL, got "${publicUrl}"`);

  const mail = env.MAIL?.trim();
  if (mail && !isOff(mail)) problems.push(`MAIL may only be "off", got "${mail}"`);
  else if (isOff(mail) && set('SMTP_URL'))
    problems.push('MAIL=off and SMTP_URL are both set: keep one');
  else if (!isOff(mail) && !set('SMTP_URL'))
    problems.push('SMTP_URL is not set: configure outgoing mail, or set MAIL=off');

  const payments = env.PAYMENTS?.trim();
  if (payments && !isOff(payments)) problems.push(`PAYMENTS may only be "off", got "${payments}"`);
  else if (isOff(payments)) {
    if (set('STRIPE_SECRET_KEY') || set('STRIPE_WEBHOOK_SECRET'))
      problems.push('PAYMENTS=off and STRIPE_SECRET_KEY/STRIPE_WEBHOOK_SECRET are set: keep one');
  } else {
    const key = env.STRIPE_SECRET_KEY?.trim();
    const hook = env.STRIPE_WEBHOOK_SECRET?.trim();
    if (!key) problems.push('STRIPE_SECRET_KEY is not set: configure Stripe, or set PAYMENTS=off');
    else if (!/^(sk|rk)_(live|test)_/.test(key) || key.startsWith('sk_test_sandbox_'))
      problems.push('STRIPE_SECRET_KEY is not a Stripe secret key (sk_live_… or sk_test_…)');
    if (!hook)
      problems.push('STRIPE_WEBHOOK_SECRET is not set: the whsec_… of the webhook endpoint');
    else if (!hook.startsWith('whsec_'))
      problems.push('STRIPE_WEBHOOK_SECRET is not a webhook signing secret (whsec_…)');
  }

  const seed = env.SEED?.trim().toLowerCase();
  if (seed === 'demo')
    problems.push('SEED=demo: the demo accounts have a public password; never in production');
  else if (seed && seed !== 'none') problems.push(`SEED may be "none" or "demo", got "${seed}"`);

  if (/^(1|true|yes|on)$/i.test(env.DEV_IDP?.trim() ?? ''))
    problems.push('DEV_IDP is on: the development sign-in lets anyone sign in as anyone');
  // On by default in production (docs/account.md): admins use two-factor sign-in.
  if (parseAdminRequireMfa(env.ADMIN_REQUIRE_MFA, true) === null)
    problems.push(`ADMIN_REQUIRE_MFA may be "on" or "off", got "${env.ADMIN_REQUIRE_MFA}"`);
  return problems;
}

export interface Verdict {
  production: boolean;
  problems: string[];
  /** The `_FILE` values to put into the environment. */
  resolved: Env;
}

/** The `_FILE` secrets resolved, and in production every missing or unsafe setting. */
export function checkEnvironment(env: Env, read?: (path: string) => string): Verdict {
  const { values, problems } = resolveSecretFiles(env, read);
  const production = isProduction(env);
  const all = production ? [...problems, ...productionProblems({ ...env, ...values })] : problems;
  return { production, problems: all, resolved: values };
}

/** The one message: every problem on its own line, or what a passing check found. */
export function formatVerdict(verdict: Verdict, env: Env): string {
  if (verdict.problems.length) {
    return [
      verdict.production
        ? 'Soundloft refuses to start in production (NODE_ENV=production):'
        : 'Soundloft cannot start:',
      ...verdict.problems.map((p) => `  - ${p}`),
      'See docs/production.md.',
    ].join('\n');
  }
  if (!verdict.production)
    return 'Soundloft: development mode (NODE_ENV is not production): the production checks do not apply.';
  const merged = { ...env, ...verdict.resolved };
  return [
    'Soundloft production check passed:',
    `  JWT_SECRET   ${merged.JWT_SECRET?.trim().length ?? 0} characters${merged.JWT_SECRET_PREVIOUS ? ' (JWT_SECRET_PREVIOUS accepted for verification)' : ''}`,
    `  PUBLIC_URL   ${merged.PUBLIC_URL}`,
    `  mail         ${isOff(merged.MAIL) ? 'off (MAIL=off)' : 'SMTP (SMTP_URL)'}`,
    `  payments     ${paymentsOff(merged) ? 'off (PAYMENTS=off)' : 'Stripe (STRIPE_SECRET_KEY)'}`,
    '  seed         none',
  ].join('\n');
}

/**
 * Called first by server/main.ts: puts the `_FILE` secrets into `env`, then refuses to start
 * (exit 1, nothing opened, nothing listening) when the check fails. With `--check` in `argv` it
 * prints the verdict and exits either way.
 */
export function productionGate(
  argv: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): void {
  const verdict = checkEnvironment(env);
  const checkOnly = argv.includes('--check');
  if (verdict.problems.length) {
    console.error(formatVerdict(verdict, env));
    process.exit(1);
  }
  Object.assign(env, verdict.resolved);
  if (checkOnly) {
    console.log(formatVerdict(verdict, env));
    process.exit(0);
  }
}

/** The accounts the demo seeding gives the public demo password (docs/seed.md). */
const DEMO_EMAILS = [
  DEFAULT_ADMIN_EMAILS,
  'artist@soundloft.local',
  'listener@soundloft.local',
  'premium@soundloft.local',
];

/**
 * A production server refuses a database where a demo account (or an ADMIN_EMAILS account the
 * demo seeding made) still signs in with the public demo password: a database seeded in
 * development and then deployed.
 */
export async function refuseDemoPasswords(
  db: Queryable,
  adminEmails: readonly string[] = [],
): Promise<void> {
  const { rows } = await db.query<{ email: string; hash: string }>(
    `select lower(email) as email, encrypted_password as hash from auth.users
      where lower(email) = any ($1::text[]) and coalesce(encrypted_password, '') <> ''`,
    [[...DEMO_EMAILS, ...adminEmails].map((e) => e.toLowerCase())],
  );
  const open: string[] = [];
  for (const row of rows) {
    if (await bcrypt.compare(DEMO_PASSWORD, row.hash)) open.push(row.email);
  }
  if (open.length) {
    throw new Error(
      `Soundloft refuses to start in production: ${open.join(', ')} still sign in with the public demo password (a database seeded with SEED=demo). Delete these accounts or change their passwords (docs/production.md).`,
    );
  }
}

/**
 * A production server refuses a database whose test clock (`public.app_clock_offset`, moved by
 * tests and the development server's POST /_dev/clock) is not zero: copyright deadlines
 * (docs/trust-and-safety.md) must run on real time.
 */
export async function refuseTestClock(db: Queryable): Promise<void> {
  const { rows } = await db.query<{ offset: string }>(
    `select offset_by::text as offset from public.app_clock_offset where id and offset_by <> '0'`,
  );
  if (rows.length) {
    throw new Error(
      `Soundloft refuses to start in production: the test clock is moved by ${rows[0]?.offset} (public.app_clock_offset). Reset it with \`update public.app_clock_offset set offset_by = '0'\` (docs/trust-and-safety.md).`,
    );
  }
}
