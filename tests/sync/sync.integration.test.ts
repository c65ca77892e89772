// @vitest-environment jsdom
/**
 * The repositories and the sync engine against the REAL embedded REST server (server/rest on a
 * migrated PGlite, in a child process: tests/support/sync/rest-server-process.mjs), with user JWTs.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenClient } from '../../src/data/remote/create-client';
import { likedTrackIds, playlistById, playlistsOf } from '../../src/data/repositories/queries';
import {
  createTestClient,
  drain,
  startServerProcess,
  type RunningServer,
} from '../support/sync/server-harness';

let server: RunningServer;
beforeAll(async () => {
  server = await startServerProcess();
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('sync against the real server', () => {
  it('offline writes reach the server exactly once, and a second device pulls them', async () => {
    const user = await server.newUser();
    const a = await createTestClient(server, user);
    const [t0, t1] = server.tracks;
    await a.repos.likes.toggle(t0!);
    const p = await a.repos.playlists.create('Road trip', 'summer');
    await a.repos.playlists.addTrack(p.id, t1!);
    a.faults.push('drop-request', 'drop-request');
    await a.engine.syncNow();
    expect(await a.engine.pendingCount()).toBe(3);
    expect(await server.serverRows('liked_tracks', 'user_id', user)).toHaveLength(0);

    a.faults.push('drop-response'); // committed, answer lost: the replay must not apply twice
    await drain(a);
    const likes = await server.serverRows('liked_tracks', 'user_id', user);
    expect(likes.map((l) => l.track_id)).toEqual([t0]);
    const playlists = await server.serverRows('playlists', 'created_by', user);
    expect(playlists).toMatchObject([{ id: p.id, name: 'Road trip', track_ids: [t1] }]);
    const log = await server.serverRows('sync_mutations', 'user_id', user);
    expect(log.map((m) => m.status)).toEqual(['applied', 'applied', 'applied']);

    const b = await createTestClient(server, user);
    await b.engine.syncNow();
    expect(await likedTrackIds(b.db, user)).toEqual([t0]);
    expect((await playlistById(b.db, p.id))?.trackIds).toEqual([t1]);
    await Promise.all([a.close(), b.close()]);
  }, 60_000);

  it('refreshes an expired token once and carries on', async () => {
    const user = await server.newUser();
    const a = await createTestClient(server, user);
    await a.repos.likes.toggle(server.tracks[2]!);
    a.faults.push('expired-token');
    const outcome = await a.engine.syncNow();
    expect(outcome).toEqual({ kind: 'done', sent: 1 });
    expect(await server.serverRows('liked_tracks', 'user_id', user)).toHaveLength(1);
    await a.close();
  }, 60_000);

  it('dead-letters what the server refuses, tells the user, and shows the truth again', async () => {
    const user = await server.newUser();
    const a = await createTestClient(server, user);
    const messages: string[] = [];
    a.engine.status.subscribe(() => {
      const failure = a.engine.status.getSnapshot().lastFailure;
      if (failure && !messages.includes(failure)) messages.push(failure);
    });
    const p = await a.repos.playlists.create('Mine');
    await drain(a);
    // Someone else's track: lyrics are the uploader's to edit (RLS 42501).
    await a.db.tracks.delete(server.tracks[0]!);
    await a.repos.lyrics.save(server.tracks[0]!, [{ text: 'la la', timestamp: 1 }]);
    // A track id that does not exist: add_track_to_playlist raises 'Track not found'.
    await a.repos.playlists.addTrack(p.id, crypto.randomUUID());
    await drain(a);
    expect(messages).toEqual(['Failed to save lyrics', 'Failed to add track to playlist']);
    expect(await a.db.deadLetters.count()).toBe(2);
    // The server's truth again: the track's empty lyrics record (made with every track), never
    // the refused 'la la'.
    expect((await a.db.lyrics.get(server.tracks[0]!))?.lines ?? []).toEqual([]);
    expect((await playlistById(a.db, p.id))?.trackIds).toEqual([]);
    await a.close();
  }, 60_000);

  it("a taken-down track leaves listeners' mirrors on their next pull; its uploader keeps it and sees why", async () => {
    const [listener, adminId] = [await server.newUser(), await server.newAdmin()];
    const trackId = server.tracks[5]!;
    const a = await createTestClient(server, listener);
    const up = await createTestClient(server, server.uploader);
    await a.engine.syncNow();
    await up.engine.syncNow();
    expect(await a.db.tracks.get(trackId)).toBeDefined();

    const as = async (userId: string) => {
      const token = await server.token(userId);
      return createTokenClient({
        url: server.url,
        anonKey: server.anonKey,
        accessToken: async () => token,
      });
    };
    const report = await (
      await as(listener)
    )
      .from('track_reports')
      .insert({ track_id: trackId, reason: 'copyright', note: 'Not theirs' })
      .select('id')
      .single();
    expect(report.error).toBeNull();
    const resolved = await (
      await as(adminId)
    ).rpc('resolve_track_report', {
      report_id: report.data!.id,
      action: 'take_down',
      reason: 'Copyright claim.',
    });
    expect(resolved.error).toBeNull();

    await a.engine.syncNow();
    expect(await a.db.tracks.get(trackId)).toBeUndefined();
    await up.engine.syncNow();
    expect(await up.db.tracks.get(trackId)).toMatchObject({ takedownReason: 'Copyright claim.' });
    await Promise.all([a.close(), up.close()]);
  }, 60_000);

  it("never sends one user's queue under another user's session", async () => {
    const [alice, bob] = [await server.newUser(), await server.newUser()];
    const a = await createTestClient(server, alice);
    await a.repos.likes.toggle(server.tracks[3]!);
    await a.signInAs(bob);
    expect((await a.engine.syncNow()).kind).toBe('wrong-user');
    expect(await a.engine.pendingCount()).toBe(1);
    expect(await a.engine.beforeSignOut()).toEqual({ pending: 1, safe: false });
    expect(await server.serverRows('liked_tracks', 'user_id', bob)).toHaveLength(0);
    await a.signInAs(alice);
    await drain(a);
    expect(await server.serverRows('liked_tracks', 'user_id', alice)).toHaveLength(1);
    expect(await playlistsOf(a.db, alice)).toEqual([]);
    await a.close();
  }, 60_000);
});
