// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isLibraryTab, parseLibrarySearch } from './library-search';

describe('parseLibrarySearch', () => {
  it('keeps valid values', () => {
    expect(parseLibrarySearch({ tab: 'liked', create: 'playlist', edit: 'abc' })).toEqual({
      tab: 'liked',
      create: 'playlist',
      edit: 'abc',
    });
  });

  it('drops unknown tabs, other create values and empty edit ids', () => {
    expect(parseLibrarySearch({ tab: 'albums', create: 'track', edit: '' })).toEqual({});
    expect(parseLibrarySearch({ edit: 42 })).toEqual({});
  });
});

it('isLibraryTab', () => {
  expect(isLibraryTab('uploads')).toBe(true);
  expect(isLibraryTab('nope')).toBe(false);
  expect(isLibraryTab(null)).toBe(false);
});
