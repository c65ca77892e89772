/**
 * Integration-test harness: a fresh migrated database (server/db's openTestDatabase: in-memory
 * PGlite, or a unique database on TEST_DATABASE_URL), a fixture schema for the grammar tests, and
 * the REST server on a real port.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../db/database';
import { openTestDatabase } from '../db/test-database';
import { loadKeys, signHs256, type Keys } from '../keys/keys';
import { startRestServer, type RunningRestServer } from './serve';

export const FIXTURE_SQL = `
create table public.fx_bands (
  id int primary key, name text not null, country text, formed int, tags text[], meta jsonb,
  search tsvector generated always as (to_tsvector('english', name)) stored
);
create table public.fx_albums (
  id int primary key, band_id int not null references public.fx_bands (id),
  producer_id int references public.fx_bands (id), title text not null, released date, rating numeric(3, 1)
);
create table public.fx_songs (
  id serial primary key, album_id int not null references public.fx_albums (id) on delete cascade,
  title text not null, seconds int check (seconds > 0), lyrics text, created_at timestamptz not null default now(),
  unique (album_id, title)
);
create table public.fx_genres (id int primary key, name text not null unique);
create table public.fx_band_genres (
  band_id int not null references public.fx_bands (id), genre_id int not null references public.fx_genres (id),
  primary key (band_id, genre_id)
);
create table public.fx_notes (
  id uuid primary key default gen_random_uuid(), owner uuid not null default auth.uid(),
  body text not null, created_at timestamptz not null default now()
);
alter table public.fx_notes enable row level security;
create policy "own notes read" on public.fx_notes for select using (owner = auth.uid());
create policy "own notes write" on public.fx_notes for insert with check (owner = auth.uid());
create policy "own notes update" on public.fx_notes for update using (owner = auth.uid());
create policy "own notes delete" on public.fx_notes for delete using (owner = auth.uid());
create table public.fx_secrets (id int primary key, value text);
revoke all on public.fx_secrets from anon, authenticated;
revoke insert, update, delete on public.fx_bands, public.fx_albums from anon;

insert into public.fx_bands values
  (1, 'The Beatles', 'UK', 1960, '{rock,pop}', '{"label":{"name":"EMI"},"members":4}'),
  (2, 'Radiohead', 'UK', 1985, '{rock,alternative}', '{"label":{"name":"XL"},"members":5}'),
  (3, 'Daft Punk', 'FR', 1993, '{electronic}', '{"label":{"name":"Virgin"},"members":2}'),
  (4, 'Nirvana', 'US', 1987, '{rock,grunge}', null),
  (5, 'Unknown Band', null, null, null, null);
insert into public.fx_genres values (1, 'rock'), (2, 'pop'), (3, 'electronic');
insert into public.fx_band_genres values (1, 1), (1, 2), (2, 1), (3, 3);
insert into public.fx_albums values
  (10, 1, 3, 'Abbey Road', '1969-09-26', 9.5),
  (11, 1, null, 'Revolver', '1966-08-05', 9.2),
  (20, 2, null, 'OK Computer', '1997-05-21', 9.8),
  (30, 3, 1, 'Discovery', '2001-03-12', 8.9);
insert into public.fx_songs (album_id, title, seconds, lyrics) values
  (10, 'Come Together', 259, 'here come old flat top'),
  (10, 'Something', 182, 'something in the way she moves'),
  (11, 'Taxman', 159, null),
  (20, 'Paranoid Android', 387, 'please could you stop the noise'),
  (20, 'Karma Police', 264, 'arrest this man'),
  (30, 'One More Time', 320, 'one more time we are gonna celebrate');

create function public.fx_add(a int, b int default 1) returns int language sql immutable as $$ select a + b $$;
create function public.fx_noop() returns void language sql as $$ select $$;
create function public.fx_bands_from(country text) returns setof public.fx_bands language sql stable
  as $$ select * from public.fx_bands b where b.country = fx_bands_from.country $$;
create function public.fx_numbers(n int) returns setof int language sql immutable as $$ select generate_series(1, n) $$;
create function public.fx_fail() returns void language plpgsql as $$
begin raise exception 'I refuse!' using detail = 'Pretty simple', hint = 'There is nothing you can do.'; end $$;
create function public.fx_payment() returns void language plpgsql as $$
begin raise sqlstate 'PT402' using message = 'Payment Required', detail = 'Quota exceeded'; end $$;
create function public.fx_echo(payload jsonb) returns jsonb language sql immutable as $$ select payload $$;
create function public.fx_whole(jsonb) returns jsonb language sql immutable as $$ select $1 $$;
create type public.fx_pair as (left_value int, right_value text);
create function public.fx_make_pair(n int) returns public.fx_pair language sql immutable as $$ select (n, 'x')::public.fx_pair $$;
create function public.fx_stats(out total int, out longest int) language sql stable
  as $$ select count(*)::int, max(seconds)::int from public.fx_songs $$;
create function public.fx_song_list(min_seconds int) returns table (id int, title text, seconds int) language sql stable
  as $$ select id, title, seconds from public.fx_songs where seconds >= min_seconds order by id $$;
create function public.fx_write_note(body text) returns uuid language sql volatile
  as $$ insert into public.fx_notes (body) values (body) returning id $$;
create function public.fx_whoami() returns json language sql stable
  as $$ select json_build_object('role', current_user, 'uid', auth.uid(), 'method', current_setting('request.method', true),
        'path', current_setting('request.path', true), 'ua', current_setting('request.headers', true)::json->>'x-test') $$;
`;

/** Stand-in WebSocket for supabase-js's realtime client, which REST tests never connect. */
function NoWebSocket(): never {
  throw new Error('realtime is not used by the REST tests');
}

export interface RestHarness {
  db: Database;
  server: RunningRestServer;
  url: string;
  keys: Keys;
  /** A token for an authenticated user with this id (sub). */
  userToken: (sub: string, extra?: Record<string, unknown>) => string;
  client: (token?: string) => SupabaseClient;
  /** Raw fetch against /rest/v1 with the anon key unless headers say otherwise. */
  rest: (
    path: string,
    init?: RequestInit & { headers?: Record<string, string> },
  ) => Promise<Response>;
  close: () => Promise<void>;
}

export async function startHarness(
  extraSql = '',
  /** Server options beyond db and keys (dbSchemas, planEnabled, maxRows, …). */
  options: Omit<Parameters<typeof startRestServer>[0], 'db' | 'keys'> = {},
): Promise<RestHarness> {
  const test = await openTestDatabase();
  await test.db.exec(FIXTURE_SQL + extraSql);
  const keys = loadKeys(
    { JWT_SECRET: 'test-secret-that-is-at-least-32-characters-long' },
    () => undefined,
  );
  const server = await startRestServer({ ...options, db: test.db, keys });
  const url = server.url;
  const userToken = (sub: string, extra: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return signHs256(
      { sub, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 3600, ...extra },
      keys.jwtSecret,
    );
  };
  return {
    db: test.db,
    server,
    url,
    keys,
    userToken,
    client: (token) =>
      createClient(url, keys.anonKey, {
        auth: { persistSession: false, autoRefreshToken: false },
        // Node 20 has no global WebSocket; realtime is never opened by these tests.
        realtime: { transport: NoWebSocket as never },
        global: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
      }),
    rest: (path, init = {}) =>
      fetch(`${url}/rest/v1${path}`, {
        ...init,
        headers: {
          apikey: keys.anonKey,
          ...(init.body ? { 'Content-Type': 'application/json' } : {}),
          ...init.headers,
        },
      }),
    close: async () => {
      await server.close();
      await test.close();
    },
  };
}
