/** The REST API over Soundloft's real migrations, driven by supabase-js as the app drives it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrack, createUser, serveAudio, type TestUser } from '../db/test-factories';
import { startHarness, type RestHarness } from './test-support';

let h: RestHarness;
let alice: TestUser;
let bob: TestUser;
let trackId: string;
beforeAll(async () => {
  h = await startHarness();
  alice = await createUser(h.db, { name: 'Alice' });
  bob = await createUser(h.db, { name: 'Bob', established: true });
  trackId = (await createTrack(h.db, alice, { title: 'First Light', genre: 'ambient' })).id;
  await createTrack(h.db, alice, { title: 'Second Wind', genre: 'rock' });
});
afterAll(async () => {
  await h?.close();
});

describe('Soundloft schema through /rest/v1', () => {
  it('anyone lists tracks newest first with the uploader embedded (disambiguated by FK column)', async () => {
    const { data, error, count } = await h
      .client()
      .from('tracks')
      .select('title,genre,plays,uploader:profiles!uploaded_by(id)', { count: 'exact' })
      .order('created_at', { ascending: false })
      .limit(50);
    expect(error).toBeNull();
    expect(count).toBe(2);
    expect(data).toHaveLength(2);
    expect(data?.[0]).toMatchObject({ uploader: { id: alice.id } });
    expect(typeof data?.[0]?.plays).toBe('number');
  });

  it('tracks ↔ profiles is ambiguous without a hint, exactly like PostgREST (300 PGRST201)', async () => {
    const res = await h.rest('/tracks?select=title,profiles(id)');
    expect(res.status).toBe(300);
    expect(await res.json()).toMatchObject({ code: 'PGRST201' });
  });

  it('a listener plays a track by RPC and reads their history with two embeds', async () => {
    const asBob = h.client(h.userToken(bob.id, { email: bob.email }));
    await serveAudio(h.db, bob.id, trackId); // the audio the player fetched (docs/plays.md)
    const played = await asBob.rpc('increment_track_plays', { track_id: trackId });
    expect(played.error).toBeNull();
    expect(played.data).toBe(true);
    const history = await asBob
      .from('listening_history')
      .select('listened_at,track:tracks(title,plays),listener:profiles(id)')
      .order('listened_at', { ascending: false });
    expect(history.error).toBeNull();
    expect(history.data).toEqual([
      {
        listened_at: expect.any(String),
        track: { title: 'First Light', plays: 1 },
        listener: { id: bob.id },
      },
    ]);
    const others = await h.client(h.userToken(alice.id)).from('listening_history').select('id');
    expect(others.data).toEqual([]);
  });

  it('privileged columns cannot be written by their owner (403 from column grants)', async () => {
    const asAlice = h.client(h.userToken(alice.id, { email: alice.email }));
    const res = await asAlice.from('tracks').update({ plays: 1_000_000 }).eq('id', trackId);
    expect(res.status).toBe(403);
    expect(res.error?.code).toBe('42501');
    const renamed = await asAlice
      .from('tracks')
      .update({ title: 'First Light (remaster)' })
      .eq('id', trackId)
      .select('title')
      .single();
    expect(renamed.error).toBeNull();
    expect(renamed.data).toEqual({ title: 'First Light (remaster)' });
    const stolen = await h
      .client(h.userToken(bob.id))
      .from('tracks')
      .update({ title: 'mine now' })
      .eq('id', trackId)
      .select();
    expect(stolen.data).toEqual([]);
  });

  it('search with ilike over several columns through or=', async () => {
    const q = 'wind';
    const { data } = await h
      .client()
      .from('tracks')
      .select('title')
      .or(`title.ilike.%${q}%,genre.ilike.%${q}%,artist.ilike.%${q}%`);
    expect(data).toEqual([{ title: 'Second Wind' }]);
  });
});
