/**
 * Server-side fixtures for playlist and library tests: rows written with the service role (so a
 * test starts from a known state without clicking through the UI), before the user signs in.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { serverRows, serviceRoleKey } from './session';

export interface SeededTrack {
  id: string;
  title: string;
  duration: number;
  cover_image: string | null;
  genre: string | null;
}

/** The first `count` demo tracks that have a cover, oldest first (a stable choice). */
export async function demoTracks(
  request: APIRequestContext,
  count: number,
): Promise<SeededTrack[]> {
  const rows = await serverRows<SeededTrack>(
    request,
    `tracks?select=id,title,duration,cover_image,genre&cover_image=not.is.null&order=created_at.asc,id.asc&limit=${count}`,
  );
  expect(rows.length).toBe(count);
  return rows;
}

async function insert(
  request: APIRequestContext,
  table: string,
  data: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const key = serviceRoleKey();
  const res = await request.post(`/rest/v1/${table}`, {
    headers: { apikey: key, authorization: `Bearer ${key}`, prefer: 'return=representation' },
    data,
  });
  expect(res.ok(), await res.text()).toBe(true);
  const rows = (await res.json()) as Record<string, unknown>[];
  return rows[0]!;
}

/** A playlist of `ownerId` holding `trackIds`; resolves to its id. */
export async function seedPlaylist(
  request: APIRequestContext,
  ownerId: string,
  name: string,
  trackIds: string[],
  description = '',
): Promise<string> {
  const row = await insert(request, 'playlists', {
    name,
    description,
    created_by: ownerId,
    track_ids: trackIds,
  });
  return String(row.id);
}

export async function seedLike(
  request: APIRequestContext,
  userId: string,
  trackId: string,
): Promise<void> {
  await insert(request, 'liked_tracks', { user_id: userId, track_id: trackId });
}

/** `count` demo tracks whose covers all differ (a playlist cover mosaic needs four). */
export async function demoTracksWithDistinctCovers(
  request: APIRequestContext,
  count: number,
): Promise<SeededTrack[]> {
  const rows = await serverRows<SeededTrack>(
    request,
    'tracks?select=id,title,duration,cover_image,genre&cover_image=not.is.null&order=created_at.asc,id.asc',
  );
  const seen = new Set<string>();
  const picked = rows.filter((t) => !seen.has(t.cover_image!) && seen.add(t.cover_image!));
  expect(picked.length).toBeGreaterThanOrEqual(count);
  return picked.slice(0, count);
}

/** The `count` shortest ready demo tracks (a stable choice: quick to play to their end). */
export async function shortestTracks(
  request: APIRequestContext,
  count: number,
): Promise<SeededTrack[]> {
  const rows = await serverRows<SeededTrack>(
    request,
    `tracks?select=id,title,duration,cover_image,genre&status=eq.ready&order=duration.asc,id.asc&limit=${count}`,
  );
  expect(rows.length, 'demo tracks').toBe(count);
  return rows;
}

/** The id of a seeded demo account (DEMO.premium...). */
export async function demoUserId(request: APIRequestContext, email: string): Promise<string> {
  const [user] = await serverRows<{ id: string }>(
    request,
    `profiles?select=id&email=eq.${encodeURIComponent(email)}`,
  );
  if (!user) throw new Error(`no seeded account ${email}`);
  return user.id;
}
