/**
 * Privileged columns and hidden rows through PostgREST's side doors: `on_conflict` upserts,
 * `Prefer: return=representation`, embedding through foreign keys, `or=` / `and=` filters,
 * `order=`, casts and `select=` renames. The columns and foreign keys come from pg_catalog, so a
 * new private column or relationship is attacked without a new line here.
 */
import { beforeAll, describe, it } from 'vitest';
import { TABLES } from './expectations/tables';
import { useAttackWorld, type Caller } from './support/actors';
import { json, verify, type Exchange } from './support/http';
import type { Target } from './support/target';
import type { World } from './support/world';

let t: Target;
let w: World;
let call: Caller;

const world = useAttackWorld();
beforeAll(async () => {
  ({ t, w, call } = world);
});

const refused = (x: Exchange) => x.status === 401 || x.status === 403;
const q = encodeURIComponent;

async function value(sql: string, params: unknown[]): Promise<string> {
  const { rows } = await t.db.query<{ v: unknown }>(sql, params);
  return JSON.stringify(rows[0]?.v ?? null);
}

describe('columns no API role may read (pg_catalog: relation readable, column not)', () => {
  let hidden: { table: string; column: string }[] = [];
  beforeAll(async () => {
    const { rows } = await t.db.query<{ table: string; column: string }>(
      `select c.relname as table, a.attname as column
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'p', 'f')
         and (has_any_column_privilege('anon', c.oid, 'select')
              or has_any_column_privilege('authenticated', c.oid, 'select'))
         and not has_column_privilege('authenticated', c.oid, a.attnum, 'select')
       order by 1, 2`,
    );
    hidden = rows;
  });

  it('exist (profiles.email, balance, stripe_customer_id at least)', () => {
    const names = hidden.map((h) => `${h.table}.${h.column}`);
    for (const c of ['profiles.email', 'profiles.balance', 'profiles.stripe_customer_id'])
      verify(names.includes(c), `${c} is readable by authenticated: ${names.join(', ')}`);
  });

  it('are refused in select renames, casts, JSON paths, filters, or=/and=, order= and embeds, for every actor', async () => {
    const failures: string[] = [];
    for (const { table, column: col } of hidden) {
      const key = (TABLES[table]?.columns ?? 'id').split(',')[0];
      const { rows: fks } = await t.db.query<{ conname: string; src: string; key: string }>(
        `select con.conname, c.relname as src,
                (select a.attname from pg_attribute a where a.attrelid = c.oid and a.attnum = con.conkey[1]) as key
         from pg_constraint con join pg_class c on c.oid = con.conrelid
         where con.contype = 'f' and con.confrelid = ('public.' || $1)::regclass
           and c.relnamespace = 'public'::regnamespace`,
        [table],
      );
      const paths = [
        `/rest/v1/${table}?select=${key},renamed:${col}`,
        `/rest/v1/${table}?select=${key},${col}::text`,
        `/rest/v1/${table}?select=${key},j:${col}->>x`,
        `/rest/v1/${table}?select=${key}&${col}=not.is.null`,
        `/rest/v1/${table}?select=${key}&or=${q(`(${col}.not.is.null,${key}.eq.${w.owner.id})`)}`,
        `/rest/v1/${table}?select=${key}&and=${q(`(${key}.eq.${w.owner.id},${col}.not.is.null)`)}`,
        `/rest/v1/${table}?select=${key}&or=${q(`(and(${key}.eq.${w.owner.id},${col}.like.*a*))`)}`,
        `/rest/v1/${table}?select=${key}&order=${col}.desc`,
        ...fks.flatMap((fk) => {
          const srcKey = (TABLES[fk.src]?.columns ?? '*').split(',')[0];
          return [
            `/rest/v1/${fk.src}?select=${srcKey},e:${table}!${fk.conname}(${col})`,
            `/rest/v1/${fk.src}?select=${srcKey},e:${table}!${fk.conname}!inner(${key})&e.${col}=not.is.null`,
          ];
        }),
      ];
      for (const actor of ['anon', 'other', 'owner'] as const)
        for (const path of paths) {
          const x = await call(actor, 'GET', path);
          // 401/403, or a type error (42883, 404) before the privilege check: never a row.
          if (x.status < 400 || x.status >= 500)
            failures.push(
              `${table}.${col} as ${actor}: answered ${x.status}\n${x.url}\n${x.body.slice(0, 300)}`,
            );
        }
    }
    verify(failures.length === 0, failures.join('\n\n'));
  });
});

describe('embedding through foreign keys never shows more than the relation itself', () => {
  it('for anon and another user, every foreign key in both directions', async () => {
    const { rows: fks } = await t.db.query<{ conname: string; src: string; dst: string }>(
      `select con.conname, c.relname as src, f.relname as dst
       from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_class f on f.oid = con.confrelid
       where con.contype = 'f' and c.relnamespace = 'public'::regnamespace
         and f.relnamespace = 'public'::regnamespace order by 1`,
    );
    const { rows: pks } = await t.db.query<{ rel: string; col: string }>(
      `select c.relname as rel, a.attname as col from pg_index i
       join pg_class c on c.oid = i.indrelid join pg_attribute a on a.attrelid = c.oid and a.attnum = i.indkey[0]
       where i.indisprimary and c.relnamespace = 'public'::regnamespace and array_length(i.indkey, 1) = 1`,
    );
    const pkOf = new Map(pks.map((p) => [p.rel, p.col]));
    const failures: string[] = [];
    for (const fk of fks)
      for (const [from, to] of [
        [fk.src, fk.dst],
        [fk.dst, fk.src],
      ] as const) {
        const toPk = pkOf.get(to);
        const toCols = TABLES[to]?.columns ?? '*';
        const fromKey = (TABLES[from]?.columns ?? '*').split(',')[0];
        for (const actor of ['anon', 'other'] as const) {
          const x = await call(
            actor,
            'GET',
            `/rest/v1/${from}?select=${fromKey},e:${to}!${fk.conname}(${toCols})&limit=200`,
          );
          if (refused(x)) continue;
          if (x.status !== 200) {
            failures.push(
              `${from} → ${to} (${fk.conname}) as ${actor}: ${x.status} ${x.body.slice(0, 200)}`,
            );
            continue;
          }
          if (!toPk) continue;
          const embedded = json<{ e: unknown }[]>(x)
            .flatMap((r) => (Array.isArray(r.e) ? r.e : r.e ? [r.e] : []))
            .map((e) => (e as Record<string, unknown>)[toPk])
            .filter((v): v is string => typeof v === 'string');
          for (const id of [...new Set(embedded)].slice(0, 3)) {
            const direct = await call(
              actor,
              'GET',
              `/rest/v1/${to}?select=${toPk}&${toPk}=eq.${q(id)}`,
            );
            if (direct.status !== 200 || json<unknown[]>(direct).length !== 1)
              failures.push(
                `${from} → ${to} (${fk.conname}) as ${actor} embedded ${to} ${id}, which ${actor} cannot read directly (${direct.status} ${direct.body.slice(0, 100)})`,
              );
          }
        }
      }
    verify(failures.length === 0, failures.join('\n'));
  });
});

describe('upserts (on_conflict) and return=representation', () => {
  const merge = { Prefer: 'resolution=merge-duplicates,return=minimal' };

  it('a user cannot upsert their own privileged profile columns', async () => {
    const attacks: Record<string, unknown>[] = [
      { subscription_plan: 'premium' },
      { balance: 1_000_000 },
      { stripe_customer_id: 'cus_stolen' },
      { followers: 999_999 },
      { monthly_uploads: -100 },
      { email: 'admin@security.test' },
    ];
    const before = await value(
      'select to_jsonb(p) - $2 as v from public.profiles p where id = $1',
      [w.other.id, 'updated_at'],
    );
    for (const extra of attacks) {
      const x = await call('other', 'POST', '/rest/v1/profiles?on_conflict=id', {
        body: JSON.stringify({ id: w.other.id, name: 'Other', ...extra }),
        headers: merge,
      });
      verify(refused(x), `upserting ${Object.keys(extra)[0]} was not refused`, x);
      const y = await call('other', 'PATCH', `/rest/v1/profiles?id=eq.${w.other.id}`, {
        body: JSON.stringify(extra),
      });
      verify(refused(y), `updating ${Object.keys(extra)[0]} was not refused`, y);
    }
    const after = await value('select to_jsonb(p) - $2 as v from public.profiles p where id = $1', [
      w.other.id,
      'updated_at',
    ]);
    verify(before === after, `the profile changed: ${before} → ${after}`);
  });

  it("another user's rows cannot be taken over by an upsert on their key", async () => {
    const cases: [string, string, Record<string, unknown>, string, unknown[]][] = [
      [
        'profiles',
        'id',
        { id: w.owner.id, name: 'pwned' },
        'select name as v from public.profiles where id = $1',
        [w.owner.id],
      ],
      [
        'playlists',
        'id',
        { id: w.playlistO, name: 'pwned', created_by: w.other.id },
        'select to_jsonb(p) as v from public.playlists p where id = $1',
        [w.playlistO],
      ],
      [
        'track_lyrics',
        'track_id',
        { track_id: w.trackO, lyrics: [{ text: 'pwned' }], language: 'xx' },
        'select to_jsonb(l) as v from public.track_lyrics l where track_id = $1',
        [w.trackO],
      ],
      [
        'tracks',
        'id',
        {
          id: w.trackO,
          title: 'pwned',
          artist: 'x',
          audio_url: `tracks/${w.other.id}/a.mp3`,
          uploaded_by: w.other.id,
        },
        'select to_jsonb(t) as v from public.tracks t where id = $1',
        [w.trackO],
      ],
      [
        'liked_tracks',
        'user_id,track_id',
        { user_id: w.owner.id, track_id: w.trackO },
        'select count(*) as v from public.liked_tracks where user_id = $1',
        [w.owner.id],
      ],
    ];
    for (const [table, key, body, sql, params] of cases) {
      const before = await value(sql, params);
      for (const prefer of ['resolution=merge-duplicates', 'resolution=ignore-duplicates']) {
        const x = await call('other', 'POST', `/rest/v1/${table}?on_conflict=${key}`, {
          body: JSON.stringify(body),
          headers: { Prefer: `${prefer},return=representation` },
        });
        const after = await value(sql, params);
        verify(before === after, `${table}: another user's upsert (${prefer}) changed the row`, x);
        verify(x.status < 500, `${table}: upsert answered ${x.status}`, x);
      }
    }
  });

  it('plays, verification and keys of a track cannot be written by its uploader', async () => {
    const sql =
      'select jsonb_build_object($2::text, plays, $3::text, verified, $4::text, uploaded_by) as v from public.tracks where id = $1';
    const params = [w.trackO, 'plays', 'verified', 'by'];
    const before = await value(sql, params);
    const base = {
      id: w.trackO,
      title: 'T',
      artist: 'A',
      audio_url: `tracks/${w.owner.id}/a.mp3`,
      uploaded_by: w.owner.id,
    };
    const attempts: [string, string, Record<string, unknown>, Record<string, string>][] = [
      ['POST', '/rest/v1/tracks?on_conflict=id', { ...base, plays: 1_000_000 }, merge],
      ['POST', '/rest/v1/tracks?on_conflict=id', { ...base, verified: true }, merge],
      ['PATCH', `/rest/v1/tracks?id=eq.${w.trackO}`, { plays: 1_000_000 }, {}],
      ['PATCH', `/rest/v1/tracks?id=eq.${w.trackO}`, { verified: true }, {}],
      ['PATCH', `/rest/v1/tracks?id=eq.${w.trackO}`, { uploaded_by: w.other.id }, {}],
      ['POST', '/rest/v1/tracks', { ...base, id: crypto.randomUUID(), plays: 5 }, {}],
    ];
    for (const [method, path, body, headers] of attempts) {
      const x = await call('owner', method, path, { body: JSON.stringify(body), headers });
      verify(refused(x), `the uploader's ${method} ${Object.keys(body).at(-1)} was not refused`, x);
    }
    const admin = await call('admin', 'PATCH', `/rest/v1/tracks?id=eq.${w.trackO}`, {
      body: JSON.stringify({ plays: 1_000_000 }),
    });
    verify(refused(admin), 'an admin wrote tracks.plays', admin);
    verify((await value(sql, params)) === before, 'the track changed');
  });

  it('return=representation and select= never read what the caller may not', async () => {
    const attempts: [string, string, Record<string, unknown> | null, string][] = [
      ['PATCH', `/rest/v1/profiles?id=eq.${w.other.id}`, { bio: 'x' }, 'return=representation'],
      [
        'PATCH',
        `/rest/v1/profiles?id=eq.${w.other.id}&select=id,email,balance`,
        { bio: 'x' },
        'return=representation',
      ],
      [
        'PATCH',
        `/rest/v1/profiles?id=eq.${w.owner.id}&select=id,email`,
        { bio: 'x' },
        'return=representation',
      ],
      [
        'POST',
        `/rest/v1/followers?select=*,f:profiles!followers_following_id_fkey(email,balance)`,
        { follower_id: w.other.id, following_id: w.admin.id },
        'return=representation',
      ],
      ['DELETE', `/rest/v1/withdrawals?id=eq.${w.withdrawalO}`, null, 'return=representation'],
      [
        'PATCH',
        `/rest/v1/withdrawals?id=eq.${w.withdrawalO}`,
        { status: 'completed' },
        'return=representation',
      ],
      [
        'DELETE',
        `/rest/v1/earnings_ledger?user_id=eq.${w.owner.id}`,
        null,
        'return=representation',
      ],
    ];
    for (const [method, path, body, prefer] of attempts) {
      const x = await call('other', method, path, {
        body: body ? JSON.stringify(body) : undefined,
        headers: { Prefer: prefer },
      });
      // The canary check in `call` fails on a leak; the status must not pretend success with rows.
      const rows = x.status < 300 && x.body.trim().startsWith('[') ? json<unknown[]>(x) : [];
      verify(
        refused(x) || rows.every((r) => !JSON.stringify(r).includes('"balance"')),
        'a balance came back',
        x,
      );
    }
    const w0 = await value('select to_jsonb(x) as v from public.withdrawals x where id = $1', [
      w.withdrawalO,
    ]);
    verify(w0.includes('"pending"'), `the owner's withdrawal changed: ${w0}`);
  });

  it('counts and ranges of hidden rows say nothing (Prefer: count=exact)', async () => {
    for (const table of [
      'withdrawals',
      'earnings_ledger',
      'play_events',
      'liked_tracks',
      'track_reports',
    ]) {
      const x = await call('other', 'GET', `/rest/v1/${table}?select=*&user_id=eq.${w.owner.id}`, {
        headers: { Prefer: 'count=exact' },
      });
      const range = x.headers['content-range'] ?? '';
      verify(
        x.status === 400 || refused(x) || /\/0$/.test(range) || range === '*/0',
        `${table}: a count of the owner's rows`,
        x,
      );
    }
  });

  it('other schemas are not reachable (Accept-Profile / Content-Profile)', async () => {
    for (const [profile, table] of [
      ['auth', 'users'],
      ['auth', 'refresh_tokens'],
      ['storage', 'objects'],
      ['supabase_migrations', 'schema_migrations'],
    ]) {
      const x = await call('other', 'GET', `/rest/v1/${table}?select=*`, {
        headers: { 'Accept-Profile': profile! },
      });
      verify(x.status === 406 || refused(x), `${profile}.${table} answered ${x.status}`, x);
      verify(!x.body.includes(w.owner.email), `${profile}.${table} leaked`, x);
      const y = await call('other', 'POST', `/rest/v1/${table}`, {
        body: '{}',
        headers: { 'Content-Profile': profile! },
      });
      verify(y.status === 406 || refused(y), `${profile}.${table} write answered ${y.status}`, y);
    }
  });
});
