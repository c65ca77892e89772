/**
 * `get-recommendations`: POST {recentlyPlayed: track[], limit?} → {recommendations: track[]}.
 * Collaborative filtering first (what listeners who played or liked the same tracks as the
 * caller also played or liked), then tracks by the same artists, then the same genres as what was
 * just played, then popular ones; never what the caller already played or liked, their own
 * uploads, nor the tracks just played. The ranking is SQL (`public.recommend_tracks`, migration
 * 20261122005000) called as the caller through supabase-js, so `auth.uid()` is the caller.
 */
import { readBody, rpcErrorStatus, z } from '../_shared/body.ts';
import { json, withCors, errorResponse } from '../_shared/http.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_SEEDS = 50;
const DEFAULT_LIMIT = 10;
/** The app sends its distinct recent listens; the first MAX_SEEDS are used, more is refused. */
const MAX_RECENT = 1000;

const Body = z.strictObject({
  recentlyPlayed: z
    .array(z.record(z.string(), z.unknown()), { error: 'recentlyPlayed must be a list of tracks.' })
    .max(MAX_RECENT, { error: `recentlyPlayed: at most ${MAX_RECENT} tracks.` })
    .optional(),
  limit: z.int({ error: 'limit must be a whole number from 1 to 50.' }).min(1).max(50).optional(),
});

interface Seeds {
  ids: string[];
  artists: string[];
  genres: string[];
}

/** Ids, artists and genres of the played tracks (app or database field names, both fine). */
export function seedsOf(recentlyPlayed: unknown): Seeds {
  const seeds: Seeds = { ids: [], artists: [], genres: [] };
  if (!Array.isArray(recentlyPlayed)) return seeds;
  const add = (list: string[], value: unknown, max = 200) => {
    if (typeof value !== 'string') return;
    const v = value.trim();
    if (v && v.length <= max && !list.includes(v)) list.push(v);
  };
  for (const track of recentlyPlayed.slice(0, MAX_SEEDS)) {
    if (!track || typeof track !== 'object') continue;
    const t = track as Record<string, unknown>;
    if (typeof t.id === 'string' && UUID.test(t.id)) add(seeds.ids, t.id.toLowerCase());
    add(seeds.artists, t.artist);
    add(seeds.genres, t.genre, 100);
  }
  return seeds;
}

export const handler = withCors(async (req, ctx) => {
  if (req.method !== 'POST') return errorResponse('Method not allowed', 405);
  const body = await readBody(req, Body);
  const limit = body.limit ?? DEFAULT_LIMIT;
  const seeds = seedsOf(body.recentlyPlayed);
  const { data, error } = await ctx.userClient(req).rpc('recommend_tracks', {
    played_ids: seeds.ids,
    seed_artists: seeds.artists,
    seed_genres: seeds.genres,
    max_results: limit,
  });
  if (error) {
    const status = rpcErrorStatus(error.code);
    if (status === 500) console.error('[get-recommendations]', error);
    return errorResponse(status === 500 ? 'Failed to get recommendations' : error.message, status);
  }
  return json({ recommendations: data ?? [] });
});
