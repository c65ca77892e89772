import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type Backend } from './backend';
import { INLINE_SCRIPTS_FILE, readInlineScriptHashes } from './build/inline-scripts';
import { ROOT_DIR } from './config';
import { DATABASE_HOOK_TIMEOUT_MS } from './db/test-database';
import { createApp } from './http/app';
import { pageSecurityHeaders } from './http/security-headers';
import { DEV_JWT_SECRET, apiKey, userToken } from './keys';
import {
  checkEnvironment,
  productionProblems,
  refuseDemoPasswords,
  resolveSecretFiles,
  seedMode,
} from './production-check';
import { DEMO_PASSWORD } from './seed';

const SECRET = 'prod-test-secret-0123456789-abcdefghijklmnop';
const PREVIOUS = 'prod-test-previous-secret-0123456789-abcdefgh';

/** Everything a production server needs (docs/production.md). */
const GOOD: Record<string, string> = {
  NODE_ENV: 'production',
  JWT_SECRET: SECRET,
  PUBLIC_URL: 'https://soundloft.example',
  SMTP_URL: 'smtp://user:pass@mail.example:587',
  STRIPE_SECRET_KEY: 'sk_test_51Example',
  STRIPE_WEBHOOK_SECRET: 'whsec_example',
};

const without = (name: string, extra: Record<string, string> = {}) =>
  Object.fromEntries(Object.entries({ ...GOOD, ...extra }).filter(([key]) => key !== name));

describe('the production check', () => {
  it('passes a complete production configuration', () => {
    expect(productionProblems(GOOD)).toEqual([]);
  });

  it.each([
    ['JWT_SECRET', without('JWT_SECRET'), /JWT_SECRET is not set/],
    ['JWT_SECRET', { ...GOOD, JWT_SECRET: 'short-secret' }, /JWT_SECRET is 12 characters/],
    ['JWT_SECRET', { ...GOOD, JWT_SECRET: DEV_JWT_SECRET }, /public development secret/],
    ['PUBLIC_URL', without('PUBLIC_URL'), /PUBLIC_URL is not set/],
    ['PUBLIC_URL', { ...GOOD, PUBLIC_URL: 'http://soundloft.example' }, /PUBLIC_URL must be/],
    ['SMTP_URL', without('SMTP_URL'), /SMTP_URL is not set.*MAIL=off/],
    ['STRIPE_SECRET_KEY', without('STRIPE_SECRET_KEY'), /STRIPE_SECRET_KEY is not set/],
    ['STRIPE_WEBHOOK_SECRET', without('STRIPE_WEBHOOK_SECRET'), /STRIPE_WEBHOOK_SECRET is not/],
    ['SEED', { ...GOOD, SEED: 'demo' }, /SEED=demo/],
    ['DEV_IDP', { ...GOOD, DEV_IDP: 'true' }, /DEV_IDP/],
    ['ADMIN_REQUIRE_MFA', { ...GOOD, ADMIN_REQUIRE_MFA: 'sometimes' }, /ADMIN_REQUIRE_MFA/],
  ])('names %s when it is missing or unsafe', (_name, env, message) => {
    const problems = productionProblems(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('names every problem at once', () => {
    expect(productionProblems({ NODE_ENV: 'production' })).toHaveLength(5);
  });

  it('accepts mail and payments explicitly off', () => {
    const {
      STRIPE_SECRET_KEY: _key,
      STRIPE_WEBHOOK_SECRET: _hook,
      ...env
    } = without('SMTP_URL', {
      MAIL: 'off',
      PAYMENTS: 'off',
    });
    expect(productionProblems(env)).toEqual([]);
    expect(productionProblems({ ...env, STRIPE_SECRET_KEY: 'sk_live_x' })[0]).toMatch(
      /PAYMENTS=off and STRIPE_SECRET_KEY/,
    );
  });

  it('does not check a development server', () => {
    expect(checkEnvironment({}).problems).toEqual([]);
  });

  it('seeds the demo by default only outside production', () => {
    expect(seedMode({})).toBe('demo');
    expect(seedMode({ SEED: 'none' })).toBe('none');
    expect(seedMode({ NODE_ENV: 'production' })).toBe('none');
  });

  it('reads NAME_FILE secrets, without their final newline', () => {
    const files: Record<string, string> = { '/run/secrets/jwt': `${SECRET}\n` };
    const read = (path: string) => {
      const content = files[path];
      if (content === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
      return content;
    };
    expect(resolveSecretFiles({ JWT_SECRET_FILE: '/run/secrets/jwt' }, read)).toEqual({
      values: { JWT_SECRET: SECRET },
      problems: [],
    });
    expect(resolveSecretFiles({ SMTP_URL_FILE: '/nope' }, read).problems).toEqual([
      'SMTP_URL_FILE (/nope) cannot be read: ENOENT',
    ]);
    expect(
      resolveSecretFiles({ JWT_SECRET: SECRET, JWT_SECRET_FILE: '/run/secrets/jwt' }, read)
        .problems,
    ).toEqual(['JWT_SECRET and JWT_SECRET_FILE are both set: keep one']);
    const env = { ...without('JWT_SECRET'), JWT_SECRET_FILE: '/run/secrets/jwt' };
    expect(checkEnvironment(env, read)).toMatchObject({
      problems: [],
      resolved: { JWT_SECRET: SECRET },
    });
  });
});

/** `npm start` itself (tsx server/main.ts) in a child process. */
function runMain(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(ROOT_DIR, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts', ...args],
      {
        cwd: ROOT_DIR,
        // Only what the test gives: no JWT_SECRET etc. leaking in from the shell.
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm start in production (a real process)', () => {
  const secretDir = mkdtempSync(join(tmpdir(), 'soundloft-secrets-'));
  afterAll(() => rmSync(secretDir, { recursive: true, force: true }));

  it(
    'refuses to start without each required setting, naming it, before listening',
    async () => {
      const cases: [string, Record<string, string>][] = [
        ['JWT_SECRET', without('JWT_SECRET')],
        ['PUBLIC_URL', without('PUBLIC_URL')],
        ['SMTP_URL', without('SMTP_URL')],
        ['STRIPE_SECRET_KEY', without('STRIPE_SECRET_KEY')],
        ['STRIPE_WEBHOOK_SECRET', without('STRIPE_WEBHOOK_SECRET')],
      ];
      // --check for each, and one real start (no --check): it exits before building,
      // opening the database or listening.
      const results = await Promise.all([
        ...cases.map(([, env]) => runMain(['--check'], env)),
        runMain([], { ...without('JWT_SECRET'), PORT: '1', SKIP_BUILD: '1', DATA_DIR: 'memory' }),
      ]);
      cases.forEach(([name], i) => {
        const result = results[i]!;
        expect(result.code, name).toBe(1);
        expect(result.stderr).toContain('Soundloft refuses to start in production');
        expect(result.stderr).toContain(name);
      });
      const real = results[cases.length]!;
      expect(real.code).toBe(1);
      expect(real.stderr).toMatch(/JWT_SECRET is not set/);
      expect(real.stdout).not.toContain('Soundloft is running');
    },
    DATABASE_HOOK_TIMEOUT_MS,
  );

  it(
    '--check passes a complete configuration, with secrets from files',
    async () => {
      const file = join(secretDir, 'jwt');
      writeFileSync(file, `${SECRET}\n`);
      const result = await runMain(['--check'], {
        ...without('JWT_SECRET'),
        JWT_SECRET_FILE: file,
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Soundloft production check passed');
      expect(result.stdout).toContain(`JWT_SECRET   ${SECRET.length} characters`);
    },
    DATABASE_HOOK_TIMEOUT_MS,
  );
});

describe('a production server with every setting', () => {
  let backend: Backend;
  let app: ReturnType<typeof createApp>;
  const dist = mkdtempSync(join(tmpdir(), 'soundloft-prod-dist-'));
  const env = { ...GOOD, DATA_DIR: 'memory', JWT_SECRET_PREVIOUS: PREVIOUS };
  const HASH = "'sha256-zFML+AEdb/HsbX66VlYzBOqJKNNHs5/WNGYP8JiblyY='";

  beforeAll(async () => {
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(dist, INLINE_SCRIPTS_FILE), JSON.stringify({ scriptSrc: [HASH] }));
    backend = await startBackend(env, { publicUrl: 'https://soundloft.example' });
    app = createApp({
      distDir: dist,
      mounts: backend.mounts,
      devConfig: backend.devConfig,
      appConfig: backend.appConfig,
      securityHeaders: pageSecurityHeaders(env, readInlineScriptHashes(dist)),
    });
  }, DATABASE_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await backend?.close();
    rmSync(dist, { recursive: true, force: true });
  }, DATABASE_HOOK_TIMEOUT_MS);

  const signIn = (email: string, password: string) =>
    app.request('/auth/v1/token?grant_type=password', {
      method: 'POST',
      headers: { apikey: backend.keys.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });

  it('seeds nothing: the demo admin cannot sign in, and no address is an admin', async () => {
    expect(backend.demoAccounts).toEqual([]);
    const res = await signIn('admin@soundloft.local', DEMO_PASSWORD);
    expect(res.status).toBe(400);
    const { rows } = await backend.db.query('select 1 from public.admin_emails');
    expect(rows).toEqual([]);
    const tracks = await backend.db.query('select 1 from public.tracks');
    expect(tracks.rows).toEqual([]);
  });

  it('refuses a token signed with the development secret', async () => {
    const forged = apiKey('service_role', DEV_JWT_SECRET);
    const res = await app.request('/rest/v1/plans', {
      headers: { apikey: forged, authorization: `Bearer ${forged}` },
    });
    expect(res.status).toBe(401);
  });

  it('accepts a token signed with JWT_SECRET_PREVIOUS, not one with an unknown secret', async () => {
    const get = (token: string) =>
      app.request('/rest/v1/plans?select=id', {
        headers: { apikey: token, authorization: `Bearer ${token}` },
      });
    expect((await get(apiKey('anon', PREVIOUS))).status).toBe(200);
    expect((await get(apiKey('anon', SECRET))).status).toBe(200);
    expect((await get(apiKey('anon', 'an-unknown-secret-0123456789-abcdefghij'))).status).toBe(401);
    const user = userToken('00000000-0000-4000-8000-000000000001', PREVIOUS);
    const other = userToken('00000000-0000-4000-8000-000000000001', `${PREVIOUS}x`);
    const me = (token: string) =>
      app.request('/auth/v1/user', {
        headers: { apikey: backend.keys.anonKey, authorization: `Bearer ${token}` },
      });
    // The auth server verifies it too: past the signature, to "no such user".
    expect(await (await me(other)).json()).toMatchObject({ error_code: 'bad_jwt' });
    expect(await (await me(user)).json()).toMatchObject({ error_code: 'user_not_found' });
  });

  it('serves no development tools and no payment stand-in', async () => {
    expect(backend.stripeSandbox).toBeNull();
    for (const path of ['/_dev/mail', '/_dev/mail.json', '/_dev/config', '/_stripe/c/pay/cs_x']) {
      expect((await app.request(path)).status, path).toBe(404);
    }
    const api = await app.request('/v1/prices', { headers: { authorization: 'Bearer sk_x' } });
    expect(api.status).toBe(404);
  });

  it("tells the app its anon key, its backend being the page's own origin", async () => {
    const res = await app.request('/_app/config');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: null, anonKey: backend.keys.anonKey });
  });

  it("sends the policy headers with the app's pages", async () => {
    const res = await app.request('/library');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(scriptSrc).toContain(HASH);
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(scriptSrc).toContain('https://js.stripe.com');
    expect(/connect-src ([^;]*)/.exec(csp)?.[1]).toBe("'self' https://api.stripe.com");
    expect(res.headers.get('strict-transport-security')).toBe(
      'max-age=31536000; includeSubDomains',
    );
  });

  it('refuses a database where a demo account keeps the public password', async () => {
    const created = await app.request('/auth/v1/admin/users', {
      method: 'POST',
      headers: {
        apikey: backend.keys.serviceRoleKey,
        authorization: `Bearer ${backend.keys.serviceRoleKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        email: 'artist@soundloft.local',
        password: DEMO_PASSWORD,
        email_confirm: true,
      }),
    });
    expect(created.status).toBe(200);
    await expect(refuseDemoPasswords(backend.db)).rejects.toThrow(
      /artist@soundloft.local still sign in with the public demo password/,
    );
  });
});

describe('PAYMENTS=off', () => {
  let backend: Backend;
  let app: ReturnType<typeof createApp>;
  const dist = mkdtempSync(join(tmpdir(), 'soundloft-nopay-dist-'));

  beforeAll(async () => {
    backend = await startBackend(
      {
        DATA_DIR: 'memory',
        SEED: 'none',
        JWT_SECRET: SECRET,
        PAYMENTS: 'off',
        SUPABASE_URL: 'http://localhost:9999',
      },
      { publicUrl: 'http://localhost:9999' },
    );
    app = createApp({ distDir: dist, mounts: backend.mounts, devConfig: backend.devConfig });
  }, DATABASE_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await backend?.close();
    rmSync(dist, { recursive: true, force: true });
  }, DATABASE_HOOK_TIMEOUT_MS);

  it('tells the app, serves no sandbox, and answers checkout with 503', async () => {
    expect(backend.stripeSandbox).toBeNull();
    const status = await app.request('/functions/v1/payments-status');
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({
      enabled: false,
      notice: 'Paid plans are not available on this server right now.',
    });
    const user = userToken('00000000-0000-4000-8000-000000000002', SECRET);
    const checkout = await app.request('/functions/v1/create-checkout-session', {
      method: 'POST',
      headers: {
        apikey: backend.keys.anonKey,
        authorization: `Bearer ${user}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ planId: 'basic' }),
    });
    expect(checkout.status).toBe(503);
    expect(await checkout.json()).toEqual({
      error: 'Paid plans are not available on this server right now.',
    });
    expect((await app.request('/_stripe/c/pay/cs_x')).status).toBe(404);
  });
});
