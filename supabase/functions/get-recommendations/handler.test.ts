import type { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS } from '../../../server/db/test-database';
import { createTrack, type TestUser } from '../../../server/db/test-factories';
import {
  startFunctionsHarness,
  type FunctionsHarness,
} from '../../../server/functions/test-support';
import { seedsOf } from './handler';

let h: FunctionsHarness;
let listener: TestUser;
let newcomer: TestUser;
const ids: Record<string, string> = {};

const listen = (user: TestUser, key: string) =>
  h.db.query('insert into public.listening_history (user_id, track_id) values ($1, $2)', [
    user.id,
    ids[key],
  ]);
const like = (user: TestUser, key: string) =>
  h.db.query('insert into public.liked_tracks (user_id, track_id) values ($1, $2)', [
    user.id,
    ids[key],
  ]);

beforeAll(async () => {
  h = await startFunctionsHarness();
  listener = await h.newUser();
  newcomer = await h.newUser();
  const aurora = await h.newUser();
  const blue = await h.newUser();
  const add = async (key: string, by: TestUser, artist: string, genre: string, plays = 0) => {
    const t = await createTrack(h.db, by, { title: key, artist, genre });
    await h.db.query('update public.tracks set plays = $2 where id = $1', [t.id, plays]);
    ids[key] = t.id;
  };
  await add('played', aurora, 'Aurora', 'Rock');
  await add('sameArtist', aurora, 'Aurora', 'Pop', 1);
  await add('heardBefore', aurora, 'Aurora', 'Rock', 0);
  await add('sameGenre', blue, 'Blue', 'rock', 2);
  await add('popular', blue, 'Blue', 'Jazz', 100);
  await add('liked', blue, 'Blue', 'Jazz', 50);
  await add('coListened', blue, 'Blue', 'Ambient', 0);
  await add('coLiked', blue, 'Blue', 'Ambient', 0);
  await add('own', listener, 'Aurora', 'Rock', 500);
  await listen(listener, 'heardBefore');
  await like(listener, 'liked');
  // Two other listeners who played 'played' also played 'coListened'; one of them liked 'coLiked'.
  for (const fan of [await h.newUser(), await h.newUser()]) {
    await listen(fan, 'played');
    await listen(fan, 'coListened');
  }
  const third = await h.newUser();
  await like(third, 'played');
  await like(third, 'coLiked');
  await listen(third, 'popular');
  await listen(third, 'popular');
  await listen(third, 'sameGenre');
  await listen(third, 'sameArtist');
  await listen(third, 'own');
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(async () => h?.close(), DATABASE_HOOK_TIMEOUT_MS);

const titles = (data: unknown) =>
  ((data as { recommendations: { title: string }[] }).recommendations ?? []).map((t) => t.title);

describe('get-recommendations', () => {
  it('ranks by what similar listeners played or liked, then artist, genre, plays; never known tracks', async () => {
    // The app sends its own track objects (camelCase fields); only id, artist, genre matter.
    const recentlyPlayed = [
      { id: ids.played, title: 'played', artist: 'Aurora', genre: 'Rock', coverImage: null },
    ];
    const { data, error } = await h
      .client(listener)
      .functions.invoke('get-recommendations', { body: { recentlyPlayed } });
    expect(error).toBeNull();
    // coListened: two neighbours (weight 1/sqrt(2) each); coLiked, sameArtist, sameGenre and
    // popular: the third neighbour (1/sqrt(6)), then artist > genre > plays. Never 'played'
    // (just played), 'heardBefore' (in the history), 'liked' (liked) or 'own' (own upload).
    expect(titles(data)).toEqual(['coListened', 'sameArtist', 'sameGenre', 'popular', 'coLiked']);
    const first = (data as { recommendations: Record<string, unknown>[] }).recommendations[0];
    expect(first).toMatchObject({
      id: ids.coListened,
      artist: 'Blue',
      audio_url: expect.any(String),
    });
  });

  it('uses the listening history and likes when nothing was sent', async () => {
    await listen(newcomer, 'played');
    const { data, error } = await h
      .client(newcomer)
      .functions.invoke('get-recommendations', { body: { recentlyPlayed: [] } });
    expect(error).toBeNull();
    expect(titles(data)[0]).toBe('coListened');
    expect(titles(data)).not.toContain('played');
    expect(titles(data)).toContain('own'); // someone else's upload for the newcomer
  });

  it('falls back to popular tracks without history, and honours limit', async () => {
    const { data } = await h
      .client(listener)
      .functions.invoke('get-recommendations', { body: { recentlyPlayed: [], limit: 2 } });
    expect(titles(data)).toEqual(['popular', 'sameGenre']);
    const anon = await h.client().functions.invoke('get-recommendations', { body: {} });
    expect(titles(anon.data)[0]).toBe('own'); // nobody's own upload when signed out
  });

  it('refuses a malformed body with {error}', async () => {
    const { error } = await h
      .client(listener)
      .functions.invoke('get-recommendations', { body: { recentlyPlayed: 'nope' } });
    const context = (error as FunctionsHttpError).context as Response;
    expect(context.status).toBe(400);
    expect(await context.json()).toEqual({ error: 'recentlyPlayed must be a list of tracks.' });
  });
});

describe('seedsOf', () => {
  it('keeps valid ids and distinct artists and genres, ignores junk', () => {
    expect(
      seedsOf([
        { id: 'not-a-uuid', artist: ' Aurora ', genre: 'Rock' },
        { id: '2f1c6a3e-2b7d-4c1e-9a55-0d6c1f2e3a4b', artist: 'Aurora', genre: null },
        null,
        'x',
      ]),
    ).toEqual({
      ids: ['2f1c6a3e-2b7d-4c1e-9a55-0d6c1f2e3a4b'],
      artists: ['Aurora'],
      genres: ['Rock'],
    });
    expect(seedsOf(undefined)).toEqual({ ids: [], artists: [], genres: [] });
  });
});
