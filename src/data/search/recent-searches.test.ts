// @vitest-environment node
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '../db';
import {
  RECENT_SEARCHES_MAX,
  addRecentSearch,
  clearRecentSearches,
  readRecentSearches,
} from './recent-searches';

beforeEach(async () => {
  await getDb().meta.clear();
});

describe('recent searches (per user, in the mirror)', () => {
  it('keeps the newest first, trimmed, a repeat moved to the top, at most 8', async () => {
    await addRecentSearch('u1', ' harbor ');
    await addRecentSearch('u1', 'kettle');
    await addRecentSearch('u1', 'HARBOR');
    await addRecentSearch('u1', '   ');
    expect(await readRecentSearches('u1')).toEqual(['HARBOR', 'kettle']);
    for (let i = 0; i < 10; i++) await addRecentSearch('u1', `q${i}`);
    const list = await readRecentSearches('u1');
    expect(list).toHaveLength(RECENT_SEARCHES_MAX);
    expect(list[0]).toBe('q9');
  });

  it('is per user, and clearing one user leaves the other', async () => {
    await addRecentSearch('u1', 'harbor');
    await addRecentSearch('u2', 'lanterns');
    await clearRecentSearches('u1');
    expect(await readRecentSearches('u1')).toEqual([]);
    expect(await readRecentSearches('u2')).toEqual(['lanterns']);
  });
});
