/**
 * `npm run test:postgres` (scripts/test-postgres.sh, project `multinode`): Soundloft as it is
 * deployed beyond one machine (docs/deploy.md), every part its own process on loopback: one
 * PostgreSQL (TEST_DATABASE_URL, a fresh database), one S3 endpoint (s3rver, server/storage/
 * test-s3.ts, which checks every signature), two web nodes A and B (`SOUNDLOFT_ROLE=web`) and a
 * worker (`SOUNDLOFT_ROLE=worker`), each `server/main.ts` as `npm start` runs it. Driven with
 * supabase-js, as the app drives it:
 *
 * 1. a listener on A and a friend on B see each other's presence and each other's broadcast;
 * 2. an artist uploads a track through A with TUS, the PATCHes alternating between A and B;
 *    the worker claims its job and is killed with SIGKILL mid-job; another worker takes the job
 *    over and finishes it, once (attempts 2, one waveform, one rendition set);
 * 3. the listener streams the rendition from B through a signed URL with Range (206, the right
 *    bytes), and the play is counted once (docs/plays.md);
 * 4. ten wrong passwords for one address, alternating between A and B, and the eleventh is
 *    refused with 429 on both: the limit is N across the nodes, not 2N.
 *
 * Nothing waits for a duration: every step polls for the state it checks, with a bound. To keep
 * the first worker mid-job whatever the machine's speed, the test holds the track's row lock
 * while that worker claims: its first stage write waits on it, so it cannot finish before the
 * kill. The job's lease (2 minutes, a constant of every node: docs/nodes.md) is then aged in the
 * database rather than waited for, which is what 2 minutes without renewal would leave.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../server/db/test-database';
import { loadKeys } from '../../server/keys/keys';
import { makeMp3, synthSignal } from '../../server/processing/test-fixtures';
import { startTestS3Server, type TestS3Server } from '../../server/storage/test-s3';
import { tusPatch } from '../../server/storage/test-support';
import { startNodeProcess, stopNodeProcess, type NodeProcess } from './node-process';

const SECRET = 'multinode-test-secret-that-is-at-least-32-characters';
const keys = loadKeys({ JWT_SECRET: SECRET }, () => undefined);
const postgres = Boolean(process.env.TEST_DATABASE_URL);
const POLL = { timeout: 60_000, interval: 100 };
const START_TIMEOUT_MS = 90_000;

type Node = NodeProcess;

const nodes: Node[] = [];
const temporary: string[] = [];
const clients: SupabaseClient[] = [];
let test: TestDatabase;
let s3: TestS3Server;

/** A node of this cluster: its database, S3 endpoint and secret, its own disk. */
async function startNode(name: string, role: 'web' | 'worker'): Promise<Node> {
  const dataDir = mkdtempSync(join(tmpdir(), `soundloft-multinode-${name}-`));
  temporary.push(dataDir);
  const node = await startNodeProcess(
    name,
    role,
    {
      ...s3.env,
      DATABASE_URL: test.url ?? '',
      DATA_DIR: dataDir, // each node its own disk: nothing may be shared through it
      DIST_DIR: dataDir, // API only: no front end is served
      JWT_SECRET: SECRET,
      LOG_FORMAT: 'text',
    },
    START_TIMEOUT_MS,
  );
  nodes.push(node);
  return node;
}

const killed = (node: Node) => stopNodeProcess(node);

function client(node: Node, key = keys.anonKey): SupabaseClient {
  const c = createClient(node.url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never, heartbeatIntervalMs: 15_000 },
  });
  clients.push(c);
  return c;
}

interface Account {
  id: string;
  email: string;
  password: string;
}

/** A confirmed account made through node's auth admin API; `established`: older than a day. */
async function account(node: Node, established: boolean): Promise<Account> {
  const admin = client(node, keys.serviceRoleKey);
  const email = `multinode-${randomUUID().slice(0, 8)}@example.test`;
  const password = `pw-${randomUUID()}`;
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (error || !data.user) throw new Error(`createUser: ${error?.message}`);
  if (established)
    // A play earns from accounts older than public.new_account_age() (docs/plays.md).
    await test.db.query(
      `update auth.users set created_at = now() - interval '2 days' where id = $1`,
      [data.user.id],
    );
  return { id: data.user.id, email, password };
}

async function signedIn(node: Node, who: Account): Promise<SupabaseClient> {
  const c = client(node);
  const { error } = await c.auth.signInWithPassword({ email: who.email, password: who.password });
  if (error) throw new Error(`sign-in on ${node.name}: ${error.message}`);
  return c;
}

async function tokenOf(c: SupabaseClient): Promise<string> {
  const { data } = await c.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new Error('no session');
  return token;
}

beforeAll(async () => {
  if (!postgres) return;
  test = await openTestDatabase();
  s3 = await startTestS3Server();
  // The web nodes; the workers are started by the job test, where it needs them.
  await Promise.all([startNode('A', 'web'), startNode('B', 'web')]);
}, 180_000);

afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
  await Promise.all(nodes.map(killed));
  await s3?.close();
  await test?.close();
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
}, 60_000);

const byName = (name: string): Node => {
  const node = nodes.find((n) => n.name === name);
  if (!node) throw new Error(`no node ${name}`);
  return node;
};

describe.skipIf(!postgres)('two web nodes and a worker on one PostgreSQL and one S3', () => {
  it(
    'a listener on A and a friend on B see each other: presence and broadcast',
    { timeout: 90_000 },
    async () => {
      const [a, b] = [byName('A'), byName('B')];
      const [listener, friend] = [await account(a, false), await account(b, false)];
      const onA = await signedIn(a, listener);
      const onB = await signedIn(b, friend);
      const topic = `party:${randomUUID()}`;
      const join = (c: SupabaseClient, who: Account, heard: unknown[]) => {
        const channel = c.channel(topic, { config: { presence: { key: who.id } } });
        channel.on('broadcast', { event: 'now-playing' }, (m) => heard.push(m.payload));
        // A presence listener at join asks the server for presence (realtime-js sends enabled).
        channel.on('presence', { event: 'sync' }, () => undefined);
        return new Promise<typeof channel>((resolve, reject) =>
          channel.subscribe((status, error) => {
            if (status === 'SUBSCRIBED')
              void channel
                .track({ user: who.id, listening: 'Night Drive' })
                .then(() => resolve(channel));
            else if (status !== 'CLOSED') reject(new Error(`${status}: ${String(error)}`));
          }),
        );
      };
      const heardOnA: unknown[] = [];
      const heardOnB: unknown[] = [];
      const channelA = await join(onA, listener, heardOnA);
      const channelB = await join(onB, friend, heardOnB);

      const present = (channel: typeof channelA) => Object.keys(channel.presenceState()).sort();
      const both = [listener.id, friend.id].sort();
      await expect.poll(() => present(channelA), POLL).toEqual(both);
      await expect.poll(() => present(channelB), POLL).toEqual(both);

      await channelB.send({ type: 'broadcast', event: 'now-playing', payload: { from: 'B' } });
      await channelA.send({ type: 'broadcast', event: 'now-playing', payload: { from: 'A' } });
      await expect.poll(() => heardOnA, POLL).toEqual([{ from: 'B' }]);
      await expect.poll(() => heardOnB, POLL).toEqual([{ from: 'A' }]);

      // The friend leaves on B: the listener on A sees it.
      await channelB.untrack();
      await expect.poll(() => present(channelA), POLL).toEqual([listener.id]);
    },
  );

  it(
    'uploads through A and B with TUS; a worker killed mid-job is taken over; streamed from B with Range; counted once',
    { timeout: 150_000 },
    async () => {
      const [a, b] = [byName('A'), byName('B')];
      const artist = await account(a, false);
      const listener = await account(b, true);
      const artistOnA = await signedIn(a, artist);
      const artistToken = await tokenOf(artistOnA);

      // 1. TUS: created on A, PATCHes alternating A, B, A, … (each node its own disk: the parts
      // meet only in S3 and the locks only in PostgreSQL).
      // 1.5 s: the pace rule (docs/plays.md: wall time since the first byte ≥ min(30, d) − 2 s)
      // then holds at once, so no clock decides the count.
      const mp3 = new Uint8Array(await makeMp3(synthSignal(1.5, { channels: 1 }), 128));
      const name = `${artist.id}/${Date.now()}_multinode.mp3`;
      const tus = (extra: Record<string, string>) => ({
        'Tus-Resumable': '1.0.0',
        authorization: `Bearer ${artistToken}`,
        apikey: keys.anonKey,
        ...extra,
      });
      const b64 = (s: string) => Buffer.from(s).toString('base64');
      const created = await fetch(`${a.url}/storage/v1/upload/resumable`, {
        method: 'POST',
        headers: tus({
          'Upload-Length': String(mp3.length),
          'Upload-Metadata': `bucketName ${b64('tracks')},objectName ${b64(name)},contentType ${b64('audio/mpeg')}`,
          'x-upsert': 'false',
        }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const path = new URL(created.headers.get('location') ?? '').pathname;
      const chunk = Math.ceil(mp3.length / 4);
      const patchedOn: string[] = [];
      for (let offset = 0, i = 0; offset < mp3.length; i++) {
        const node = i % 2 === 0 ? a : b;
        const body = mp3.subarray(offset, offset + chunk);
        const res = await tusPatch(`${node.url}${path}`, offset, body, tus({}));
        expect(res.status, `${node.name}: ${await res.clone().text()}`).toBe(204);
        offset += body.length;
        expect(Number(res.headers.get('upload-offset'))).toBe(offset);
        patchedOn.push(node.name);
      }
      expect(patchedOn).toEqual(['A', 'B', 'A', 'B']);

      // 2. The track row, through A; the job is queued (no worker runs yet) and held back by
      // run_after until the test holds the track's row lock (a worker's start runs DDL that such a
      // lock would block, so the worker starts first).
      const inserted = await artistOnA
        .from('tracks')
        .insert({
          title: 'Two Nodes',
          artist: 'The Uploader',
          audio_url: `tracks/${name}`,
          uploaded_by: artist.id,
        })
        .select('id')
        .single();
      expect(inserted.error).toBeNull();
      const trackId = (inserted.data as { id: string }).id;
      const job = async () =>
        (
          await test.db.query<{ state: string; attempts: number; locked_by: string | null }>(
            'select state, attempts, locked_by from public.track_jobs where track_id = $1',
            [trackId],
          )
        ).rows[0];
      expect(await job()).toMatchObject({ state: 'queued', attempts: 0 });
      await test.db.query(
        `update public.track_jobs set run_after = now() + interval '1 day' where track_id = $1`,
        [trackId],
      );
      const worker1 = await startNode('worker-1', 'worker');

      let firstToken = '';
      await test.db.transaction(async (tx) => {
        await tx.query('select 1 from public.tracks where id = $1 for update', [trackId]);
        await test.db.query('update public.track_jobs set run_after = now() where track_id = $1', [
          trackId,
        ]);
        // Claimed: running under worker-1's token; its first stage write waits on the row lock.
        await expect
          .poll(async () => (await job())?.state, { timeout: 90_000, interval: 100 })
          .toBe('running');
        firstToken = (await job())?.locked_by ?? '';
        expect(firstToken).not.toBe('');
        await killed(worker1);
      });
      expect(await job()).toMatchObject({ state: 'running', attempts: 1, locked_by: firstToken });
      const status = async () =>
        (
          await test.db.query<{ status: string }>(
            'select status from public.tracks where id = $1',
            [trackId],
          )
        ).rows[0]?.status;
      expect(await status()).toBe('processing');

      // 3. Another worker. The dead one renews nothing; its lease is aged as 2 minutes would.
      await startNode('worker-2', 'worker');
      await expect
        .poll(
          async () => {
            await test.db.query(
              `update public.track_jobs set locked_at = now() - interval '1 hour'
                where track_id = $1 and locked_by = $2 and state = 'running'`,
              [trackId, firstToken],
            );
            return status();
          },
          { timeout: 90_000, interval: 200 },
        )
        .toBe('ready');
      const done = await job();
      expect(done).toMatchObject({ state: 'done', attempts: 2, locked_by: null });
      const once = await test.db.query<{ waveforms: string; renditions: string }>(
        `select (select count(*) from public.track_waveforms where track_id = $1) as waveforms,
                (select count(*) from storage.objects
                  where bucket_id = 'renditions' and name like $1 || '/%') as renditions`,
        [trackId],
      );
      expect(Number(once.rows[0]?.waveforms)).toBe(1);
      expect(Number(once.rows[0]?.renditions)).toBeGreaterThanOrEqual(1);
      expect(byName('worker-2').output()).toMatch(new RegExp(`${trackId} ready`));

      // 4. The listener streams the standard rendition from B through a signed URL, in two ranges.
      const listenerOnB = await signedIn(b, listener);
      const rendition = `${trackId}/standard.mp3`;
      const signed = await listenerOnB.storage.from('renditions').createSignedUrl(rendition, 600);
      expect(signed.error).toBeNull();
      const url = signed.data?.signedUrl ?? '';
      expect(new URL(url).origin).toBe(b.url); // through our server, not S3: the play evidence
      const whole = new Uint8Array(
        await (
          await fetch(`${a.url}/storage/v1/object/renditions/${rendition}`, {
            headers: {
              authorization: `Bearer ${keys.serviceRoleKey}`,
              apikey: keys.serviceRoleKey,
            },
          })
        ).arrayBuffer(),
      );
      expect(whole.length).toBeGreaterThan(1000);
      const half = Math.floor(whole.length / 2);
      for (const [from, to] of [
        [0, half - 1],
        [half, whole.length - 1],
      ] as const) {
        const res = await fetch(url, { headers: { Range: `bytes=${from}-${to}` } });
        expect(res.status).toBe(206);
        expect(res.headers.get('content-range')).toBe(`bytes ${from}-${to}/${whole.length}`);
        expect(new Uint8Array(await res.arrayBuffer())).toEqual(whole.subarray(from, to + 1));
      }
      // The evidence is in PostgreSQL, whichever node served it.
      await expect
        .poll(async () => {
          const { rows } = await test.db.query<{ bytes: string }>(
            `select coalesce(sum(upper(r) - lower(r)), 0) as bytes
               from public.served_audio, unnest(bytes) as r
              where listener_id = $1 and track_id = $2`,
            [listener.id, trackId],
          );
          return Number(rows[0]?.bytes);
        }, POLL)
        .toBe(whole.length);

      // 5. The play, sent to A: counted; the same listen again (another session id): not.
      const listenerOnA = await signedIn(a, listener);
      const first = await listenerOnA.rpc('increment_track_plays', {
        track_id: trackId,
        session_id: randomUUID(),
      });
      const refusals = await test.db.query<{ refusal: string | null }>(
        'select refusal from public.play_events where track_id = $1',
        [trackId],
      );
      expect(first, JSON.stringify(refusals.rows)).toMatchObject({ error: null, data: true });
      const again = await listenerOnB.rpc('increment_track_plays', {
        track_id: trackId,
        session_id: randomUUID(),
      });
      expect(again).toMatchObject({ error: null, data: false });
      const plays = await test.db.query<{ plays: string; counted: string }>(
        `select (select plays from public.tracks where id = $1) as plays,
                (select count(*) from public.play_events where track_id = $1 and counted) as counted`,
        [trackId],
      );
      expect(plays.rows[0]).toMatchObject({ plays: '1', counted: '1' });
    },
  );

  it(
    'an auth rate limit holds across both nodes: N in all, not N per node',
    { timeout: 60_000 },
    async () => {
      const [a, b] = [byName('A'), byName('B')];
      const target = await account(a, false);
      const attempt = async (node: Node) => {
        const { error } = await client(node).auth.signInWithPassword({
          email: target.email,
          password: 'not-the-password',
        });
        return error?.status;
      };
      // 10 wrong passwords per address per 5 minutes (docs/auth.md): 5 on A, 5 on B.
      for (let i = 0; i < 10; i++) expect(await attempt(i % 2 === 0 ? a : b)).toBe(400);
      expect(await attempt(a)).toBe(429);
      expect(await attempt(b)).toBe(429);
      // Even the right password, on either node, while the address is limited.
      const right = await client(b).auth.signInWithPassword({
        email: target.email,
        password: target.password,
      });
      expect(right.error?.status).toBe(429);
    },
  );
});
