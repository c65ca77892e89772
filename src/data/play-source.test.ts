import { describe, expect, it } from 'vitest';
import { sourceOfPage } from './play-source';

const PLAYLIST = '0b0c0d0e-0000-4000-8000-000000000001';

describe('the source a page implies', () => {
  it.each([
    ['/explore', '?q=lofi', '/home', { source: 'search', playlistId: null }],
    ['/explore', '', '/home', { source: 'explore', playlistId: null }],
    [`/playlist/${PLAYLIST}`, '', '/home', { source: 'playlist', playlistId: PLAYLIST }],
    ['/playlist/not-an-id', '', '/home', { source: 'other', playlistId: null }],
    ['/artist/Juniper%20Vale', '', '/home', { source: 'artist_page', playlistId: null }],
    ['/track/abc', '', '/track/abc', { source: 'shared_link', playlistId: null }],
    ['/track/abc', '', '/home', { source: 'other', playlistId: null }],
    ['/library', '', '/home', { source: 'other', playlistId: null }],
  ])('%s%s (opened on %s)', (path, search, landing, expected) => {
    expect(sourceOfPage(path, search, landing)).toEqual(expected);
  });
});
