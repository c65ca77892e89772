/**
 * Forged, stale and reused credentials against every API that takes a token (/rest/v1,
 * /storage/v1, /functions/v1, /auth/v1/user): alg none, HS256 signed with the anon key, a
 * service_role claim signed with a wrong key, an unknown alg, expired, a deleted user's token,
 * refresh-token reuse, recovery-link and recovery-code reuse, and recovery-code guessing.
 * Users are created and signed in through the auth server as the app does.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { json, send, verify, verifyClientError, type Exchange } from './support/http';
import { startTarget, type Target } from './support/target';

let t: Target;

beforeAll(async () => {
  t = await startTarget();
});
afterAll(async () => {
  await t?.close();
});

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64url');
function jwt(header: object, claims: object, secret: string | null): string {
  const head = `${b64(JSON.stringify(header))}.${b64(JSON.stringify(claims))}`;
  return secret === null
    ? `${head}.`
    : `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

interface Session {
  access_token: string;
  refresh_token: string;
  user: { id: string; email: string };
}

let n = 0;
/** A confirmed user made through the admin API, signed in with the password grant. */
async function signedUp(): Promise<Session & { password: string }> {
  const email = `tok-${++n}-${Date.now()}@security.test`;
  const password = 'correct horse battery staple';
  const made = await t.request('POST', '/auth/v1/admin/users', {
    as: 'service',
    body: JSON.stringify({ email, password, email_confirm: true }),
  });
  verify(made.status === 200, 'admin user creation', made);
  return { ...(await signIn(email, password)), password };
}

async function signIn(email: string, password: string): Promise<Session> {
  const x = await t.request('POST', '/auth/v1/token?grant_type=password', {
    body: JSON.stringify({ email, password }),
  });
  verify(x.status === 200, 'sign-in', x);
  return json<Session>(x);
}

const refresh = (token: string) =>
  t.request('POST', '/auth/v1/token?grant_type=refresh_token', {
    body: JSON.stringify({ refresh_token: token }),
  });

/** What a token may do, tried on every API: each answer must refuse it. */
async function everyApiRefuses(token: string, what: string, uid: string): Promise<void> {
  const auth = { apikey: t.keys.anonKey, Authorization: `Bearer ${token}` };
  const tries: Exchange[] = [
    await send('GET', `${t.url}/rest/v1/profiles_private?select=id,balance`, { headers: auth }),
    await send('POST', `${t.url}/rest/v1/playlists`, {
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'forged', created_by: uid }),
    }),
    await send('POST', `${t.url}/rest/v1/rpc/request_withdrawal`, {
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 5, method: 'paypal', details: 'x@example.test' }),
    }),
    await send('GET', `${t.url}/auth/v1/user`, { headers: auth }),
    await send('POST', `${t.url}/storage/v1/object/avatars/${uid}/a.png`, {
      headers: { ...auth, 'Content-Type': 'image/png' },
      body: PNG,
    }),
    await send('POST', `${t.url}/functions/v1/get-recommendations`, {
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{}',
    }),
  ];
  for (const x of tries) {
    verifyClientError(x, what);
    verify(
      x.status === 401 ||
        x.status === 403 ||
        (x.status === 400 && x.url.includes('/storage/') && /"statusCode":"40[13]"/.test(x.body)),
      `${what} was accepted by ${x.url}`,
      x,
    );
  }
  const { rows } = await t.db.query(
    `select 1 from public.playlists where name = 'forged'
     union all select 1 from public.withdrawals where details = 'x@example.test'
     union all select 1 from storage.objects where name = $1`,
    [`${uid}/a.png`],
  );
  verify(rows.length === 0, `${what} wrote something`);
}

/** The smallest valid PNG (1×1). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe('forged tokens', () => {
  it('alg none, HS256 with the anon key, service_role with a wrong key, RS256/HS512 headers, garbage', async () => {
    const s = await signedUp();
    const now = Math.floor(Date.now() / 1000);
    const user = {
      sub: s.user.id,
      role: 'authenticated',
      aud: 'authenticated',
      iat: now,
      exp: now + 3600,
    };
    const service = { role: 'service_role', iss: 'supabase', iat: now, exp: now + 3600 };
    const forged: [string, string][] = [
      ['alg none (user)', jwt({ alg: 'none', typ: 'JWT' }, user, null)],
      ['alg none (service_role)', jwt({ alg: 'none', typ: 'JWT' }, service, null)],
      [
        'alg NONE, signature kept',
        `${jwt({ alg: 'NONE' }, service, null)}${s.access_token.split('.')[2]}`,
      ],
      ['HS256 signed with the anon key', jwt({ alg: 'HS256', typ: 'JWT' }, user, t.keys.anonKey)],
      [
        'service_role signed with the anon key',
        jwt({ alg: 'HS256', typ: 'JWT' }, service, t.keys.anonKey),
      ],
      [
        'service_role signed with a wrong key',
        jwt({ alg: 'HS256', typ: 'JWT' }, service, 'not-the-secret-but-32-characters-long!!'),
      ],
      [
        'service_role claims on a user signature',
        `${jwt({ alg: 'HS256', typ: 'JWT' }, service, null)}${s.access_token.split('.')[2]}`,
      ],
      ['RS256 header', jwt({ alg: 'RS256', typ: 'JWT' }, user, t.keys.jwtSecret)],
      ['HS512 header, HS256 signature', jwt({ alg: 'HS512', typ: 'JWT' }, user, t.keys.jwtSecret)],
      ['garbage', 'not.a.jwt'],
      ['empty signature', `${s.access_token.split('.').slice(0, 2).join('.')}.`],
    ];
    for (const [what, token] of forged) await everyApiRefuses(token, what, s.user.id);
  });

  it('an expired token, and one not valid yet', async () => {
    const s = await signedUp();
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: s.user.id, role: 'authenticated', aud: 'authenticated' };
    await everyApiRefuses(
      jwt(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, iat: now - 7200, exp: now - 60 },
        t.keys.jwtSecret,
      ),
      'an expired token',
      s.user.id,
    );
    await everyApiRefuses(
      jwt(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, iat: now, nbf: now + 3600, exp: now + 7200 },
        t.keys.jwtSecret,
      ),
      'a token not valid before an hour from now',
      s.user.id,
    );
  });

  it("a deleted user's token can read nothing of theirs and write nothing", async () => {
    // As on Supabase, /rest/v1 verifies the signature and expiry only (no session lookup per
    // request): the token of a deleted user stays valid there until it expires. It must find
    // nothing and be able to write nothing; /auth/v1 refuses it and its refresh token.
    const s = await signedUp();
    await t.db.query(`select public.post_ledger_entry($1, 10, 'play')`, [s.user.id]);
    const gone = await t.request('DELETE', `/auth/v1/admin/users/${s.user.id}`, { as: 'service' });
    verify(gone.status === 200, 'admin delete', gone);
    const auth = { apikey: t.keys.anonKey, Authorization: `Bearer ${s.access_token}` };
    const jsonAuth = { ...auth, 'Content-Type': 'application/json' };
    const read = await send('GET', `${t.url}/rest/v1/profiles_private?select=id,balance`, {
      headers: auth,
    });
    verify(
      read.status === 200 && read.body.trim() === '[]',
      "a deleted user's token read a profile",
      read,
    );
    const writes = [
      await send('POST', `${t.url}/rest/v1/playlists`, {
        headers: jsonAuth,
        body: JSON.stringify({ name: 'forged', created_by: s.user.id }),
      }),
      await send('POST', `${t.url}/rest/v1/rpc/request_withdrawal`, {
        headers: jsonAuth,
        body: JSON.stringify({ amount: 5, method: 'paypal', details: 'x@example.test' }),
      }),
      await send('POST', `${t.url}/storage/v1/object/avatars/${s.user.id}/a.png`, {
        headers: { ...auth, 'Content-Type': 'image/png' },
        body: PNG,
      }),
    ];
    for (const x of writes) {
      verifyClientError(x, "a deleted user's write");
      verify(x.status >= 400, "a deleted user's token wrote", x);
    }
    const user = await send('GET', `${t.url}/auth/v1/user`, { headers: auth });
    verify(user.status === 403 || user.status === 401, "a deleted user's token read /user", user);
    const r = await refresh(s.refresh_token);
    verify(r.status >= 400 && r.status < 500, "a deleted user's refresh token worked", r);
    const { rows } = await t.db.query(
      `select 1 from public.playlists where created_by = $1
       union all select 1 from public.withdrawals where user_id = $1
       union all select 1 from storage.objects where name like $2`,
      [s.user.id, `${s.user.id}/%`],
    );
    verify(rows.length === 0, "a deleted user's token left rows behind");
  });

  it('a token of a signed-out session stops working', async () => {
    const s = await signedUp();
    const out = await send('POST', `${t.url}/auth/v1/logout`, {
      headers: { apikey: t.keys.anonKey, Authorization: `Bearer ${s.access_token}` },
    });
    verify(out.status === 204, 'logout', out);
    const user = await send('GET', `${t.url}/auth/v1/user`, {
      headers: { apikey: t.keys.anonKey, Authorization: `Bearer ${s.access_token}` },
    });
    verify(
      user.status === 403 || user.status === 401,
      'a signed-out token still reads /user',
      user,
    );
    const r = await refresh(s.refresh_token);
    verify(r.status === 400, 'a signed-out refresh token still works', r);
  });
});

describe('refresh tokens', () => {
  it('reusing a rotated refresh token (past the reuse interval) ends the whole session', async () => {
    // GoTrue's rule: the parent of the active token may always be replayed (the client lost the
    // answer) and returns the active token; any older token past the 10 s interval is theft.
    const s = await signedUp();
    const r0 = await refresh(s.refresh_token);
    verify(r0.status === 200, 'first refresh', r0);
    const r1 = await refresh(json<Session>(r0).refresh_token);
    verify(r1.status === 200, 'second refresh', r1);
    const t1 = json<Session>(r1);
    // The thief replays the old token later than the 10 s a lost answer may be retried.
    await t.db.query(
      `update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = $1`,
      [s.refresh_token],
    );
    const reuse = await refresh(s.refresh_token);
    verify(
      reuse.status === 400 && reuse.body.includes('refresh_token_already_used'),
      'a reused refresh token was accepted',
      reuse,
    );
    const victim = await refresh(t1.refresh_token);
    verify(victim.status === 400, 'the family survived a reuse', victim);
    const user = await send('GET', `${t.url}/auth/v1/user`, {
      headers: { apikey: t.keys.anonKey, Authorization: `Bearer ${t1.access_token}` },
    });
    verify(user.status === 403, 'the session of a reused refresh token is still alive', user);
  });

  it('unknown, empty and huge refresh tokens are a 4xx', async () => {
    for (const token of ['', 'x', 'x'.repeat(100_000), "' or 1=1 --", '\u0000']) {
      const x = await refresh(token);
      verifyClientError(x, 'refresh');
      verify(x.status >= 400, 'a bogus refresh token worked', x);
    }
  });
});

describe('password recovery', () => {
  async function recover(email: string): Promise<{ link: string; otp: string }> {
    await send('DELETE', `${t.url}/_dev/mail.json`);
    const x = await t.request('POST', '/auth/v1/recover', { body: JSON.stringify({ email }) });
    verify(x.status === 200, 'recover', x);
    const mails = await send('GET', `${t.url}/_dev/mail.json?to=${encodeURIComponent(email)}`);
    const mail = json<{ text: string; links: string[] }[]>(mails).at(-1);
    const link = mail?.links.find((l) => l.includes('/auth/v1/verify'));
    const otp = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
    if (!link || !otp) throw new Error(`no recovery mail: ${mails.body.slice(0, 500)}`);
    return { link, otp };
  }

  it('a recovery link works once', async () => {
    const s = await signedUp();
    const { link } = await recover(s.user.email);
    const first = await send('GET', link);
    verify(
      first.status === 303 && /access_token=/.test(first.headers.location ?? ''),
      'the link did not sign in',
      first,
    );
    const again = await send('GET', link);
    verify(
      !/access_token=/.test(again.headers.location ?? ''),
      'a used recovery link signed in again',
      again,
    );
  });

  it('a recovery code works once', async () => {
    const s = await signedUp();
    const { otp } = await recover(s.user.email);
    const body = JSON.stringify({ type: 'recovery', email: s.user.email, token: otp });
    const first = await t.request('POST', '/auth/v1/verify', { body });
    verify(first.status === 200, 'the code did not sign in', first);
    const again = await t.request('POST', '/auth/v1/verify', { body });
    verify(
      again.status >= 400 && again.status < 500,
      'a used recovery code signed in again',
      again,
    );
  });

  it('the six-digit code cannot be guessed: wrong codes are limited per address', async () => {
    const s = await signedUp();
    const { otp, link } = await recover(s.user.email);
    const wrong = (i: number) => String((Number(otp) + 1 + i) % 1_000_000).padStart(6, '0');
    const answers: Exchange[] = [];
    for (let i = 0; i < 40; i++)
      answers.push(
        await t.request('POST', '/auth/v1/verify', {
          body: JSON.stringify({ type: 'recovery', email: s.user.email, token: wrong(i) }),
        }),
      );
    const limited = answers.filter((x) => x.status === 429).length;
    verify(
      limited >= 25,
      `only ${limited} of 40 wrong codes were rate limited: 1,000,000 codes can be tried`,
      answers.at(-1)!,
    );
    // Once limited, even the right code waits (a guesser cannot tell a hit), while the
    // high-entropy link in the mail still works.
    const right = await t.request('POST', '/auth/v1/verify', {
      body: JSON.stringify({ type: 'recovery', email: s.user.email, token: otp }),
    });
    verify(right.status === 429, 'a limited address accepted a code', right);
    const viaLink = await send('GET', link);
    verify(
      /access_token=/.test(viaLink.headers.location ?? ''),
      'the link stopped working',
      viaLink,
    );
  });
});
