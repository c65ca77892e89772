import { describe, expect, it } from 'vitest';
import { isActive, NAV_GROUPS } from './nav-items';
import {
  SIDEBAR_DEFAULT,
  SIDEBAR_MAX,
  SIDEBAR_MIN,
  SIDEBAR_STORAGE_KEY,
  clampSidebarWidth,
  readSidebarPrefs,
} from './use-sidebar-prefs';

const storage = (value: string | null) => ({
  getItem: (key: string) => (key === SIDEBAR_STORAGE_KEY ? value : null),
});

describe('sidebar preferences', () => {
  it('defaults to 304 px, shown', () => {
    expect(readSidebarPrefs(storage(null))).toEqual({ width: SIDEBAR_DEFAULT, hidden: false });
    expect(SIDEBAR_DEFAULT).toBe(304);
  });
  it('keeps the width within 248 to 420 px', () => {
    expect(clampSidebarWidth(100)).toBe(SIDEBAR_MIN);
    expect(clampSidebarWidth(9999)).toBe(SIDEBAR_MAX);
    expect(clampSidebarWidth(Number.NaN)).toBe(SIDEBAR_DEFAULT);
    expect(readSidebarPrefs(storage('{"width":500,"hidden":true}'))).toEqual({
      width: 420,
      hidden: true,
    });
  });
  it('survives garbage in storage', () => {
    expect(readSidebarPrefs(storage('not json'))).toEqual({
      width: SIDEBAR_DEFAULT,
      hidden: false,
    });
  });
});

describe('navigation', () => {
  const items = NAV_GROUPS.flatMap((g) => g.items);
  const library = items.find((i) => i.label === 'Library')!;
  const liked = items.find((i) => i.label === 'Liked Songs')!;
  it('has the spec groups, administration for admins only', () => {
    expect(NAV_GROUPS.map((g) => g.label)).toEqual([
      'Discover',
      'Collection',
      'Studio',
      'Administration',
    ]);
    expect(NAV_GROUPS.find((g) => g.label === 'Administration')?.adminOnly).toBe(true);
  });
  it('marks Liked Songs, not Library, on /library?tab=liked', () => {
    expect(isActive(liked, '/library', 'liked')).toBe(true);
    expect(isActive(library, '/library', 'liked')).toBe(false);
    expect(isActive(library, '/library', 'playlists')).toBe(true);
    expect(isActive(library, '/home', undefined)).toBe(false);
  });
});
