// @vitest-environment node
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type SoundloftDb } from '../db';
import { createRepositories, type Repositories } from '../repositories';
import { pendingCount, pendingKeys, resetInflight, userQueue } from './outbox';

const ME = 'user-a';
let db: SoundloftDb;
let repos: Repositories;
let signedIn: string | null = ME;

beforeEach(async () => {
  db = createDb(`outbox-${crypto.randomUUID()}`);
  signedIn = ME;
  repos = createRepositories({ db, currentUserId: () => signedIn });
  await db.profiles.put({
    id: ME,
    name: 'Me',
    avatar: null,
    bio: null,
    socialLinks: {},
    featuredTrack: null,
    featuredPlaylist: null,
    subscriptionPlan: 'free',
    monthlyUploads: 0,
    monthlyUploadsMonth: '2026-11-01',
    followers: 0,
    createdAt: '',
    updatedAt: '',
  });
});
afterEach(() => db.delete());

const ops = async () => (await userQueue(db, ME).toArray()).map((e) => e.op);

describe('outbox collapsing', () => {
  it('like then unlike before sync leaves nothing queued, and so does unlike then like', async () => {
    await repos.likes.toggle('t1');
    await repos.likes.toggle('t1');
    expect(await ops()).toEqual([]);
    await db.likes.put({ userId: ME, trackId: 't2', id: 'l2', createdAt: '2026-01-01' });
    await repos.likes.toggle('t2');
    await repos.likes.toggle('t2');
    expect(await ops()).toEqual([]);
    expect(await db.likes.get([ME, 't2'])).toBeTruthy();
  });

  it('never collapses with an entry already sent (inflight)', async () => {
    await repos.likes.toggle('t1');
    await db.outbox.toCollection().modify({ status: 'inflight' });
    await repos.likes.toggle('t1');
    expect(await ops()).toEqual(['like.add', 'like.remove']);
    await resetInflight(db);
    expect((await userQueue(db, ME).toArray()).every((e) => e.status === 'pending')).toBe(true);
  });

  it('resetInflight writes back only the entries that were in flight', async () => {
    await repos.likes.toggle('t1');
    await repos.likes.toggle('t2');
    const [first] = await userQueue(db, ME).toArray();
    await db.outbox.update(first!.seq!, { status: 'inflight' });
    const puts: number[] = [];
    db.outbox.hook('updating', (_changes, key) => {
      puts.push(key as number);
    });
    await resetInflight(db);
    expect(puts).toEqual([first!.seq]);
    expect((await userQueue(db, ME).toArray()).every((e) => e.status === 'pending')).toBe(true);
  });

  it('never merges into an entry sent before (its answer may have been lost)', async () => {
    const p = await repos.playlists.create('A', '');
    await db.outbox.toCollection().modify({ sent: true }); // sent, no answer, pending again
    await repos.playlists.update(p.id, { name: 'B' });
    await repos.playlists.delete(p.id);
    expect(await ops()).toEqual(['playlist.create', 'playlist.update', 'playlist.delete']);
  });

  it('deleting a playlist whose creation is still queued drops all of it', async () => {
    const p = await repos.playlists.create('Road trip', '');
    await repos.playlists.addTrack(p.id, 't1');
    await repos.likes.toggle('t9');
    await repos.playlists.delete(p.id);
    expect(await ops()).toEqual(['like.add']);
  });

  it('merges an update into the tail entry of the same row only', async () => {
    const p = await repos.playlists.create('A', '');
    await repos.playlists.update(p.id, { name: 'B' });
    let queue = await userQueue(db, ME).toArray();
    expect(queue.map((e) => e.op)).toEqual(['playlist.create']);
    expect(queue[0]!.payload).toMatchObject({ name: 'B' });
    await repos.profile.update({ bio: 'x' });
    await repos.profile.update({ bio: 'y' });
    await repos.playlists.update(p.id, { name: 'C' });
    queue = await userQueue(db, ME).toArray();
    expect(queue.map((e) => e.op)).toEqual([
      'playlist.create',
      'profile.update',
      'playlist.update',
    ]);
    expect(queue[1]!.payload).toEqual({ bio: 'y' });
  });

  it("keeps users' queues apart", async () => {
    await repos.likes.toggle('t1');
    signedIn = 'user-b';
    await repos.likes.toggle('t1');
    expect(await pendingCount(db, ME)).toBe(1);
    expect(await pendingCount(db, 'user-b')).toBe(1);
  });

  it('lists the queued keys of one entity of one user (the rows a pull keeps local)', async () => {
    await repos.likes.toggle('t1');
    await repos.likes.toggle('t2');
    const p = await repos.playlists.create('Mine');
    await repos.follows.toggle('u9');
    signedIn = 'user-b';
    await repos.likes.toggle('t3');
    expect(await pendingKeys(db, ME, 'like')).toEqual(new Set([`${ME}:t1`, `${ME}:t2`]));
    expect(await pendingKeys(db, ME, 'playlist')).toEqual(new Set([p.id]));
    expect(await pendingKeys(db, ME, 'lyrics')).toEqual(new Set());
    expect(await pendingKeys(db, null, 'like')).toEqual(new Set());
  });
});
