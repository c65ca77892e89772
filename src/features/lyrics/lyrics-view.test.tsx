import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { playerActions } from '@/player';
import { createTrack, renderUi } from './lyrics-test-utils';
import { LyricsView } from './lyrics-view';
import type * as DataModule from '@/data';

vi.mock('@/data', async (importOriginal) => ({
  ...(await importOriginal<typeof DataModule>()),
  useAllTracks: () => [],
}));

const track = createTrack();
const lines = [
  { id: 'a', text: 'First line', timestamp: 2 },
  { id: 'b', text: 'Second line', timestamp: 6 },
  { id: 'c', text: 'Third line', timestamp: 10 },
];
const player = { ...track, album: null };

vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => playerActions.resetPlayer());

describe('LyricsView', () => {
  it('highlights the line whose window holds the playback time of this track', async () => {
    renderUi(<LyricsView track={track} lines={lines} synced />);
    expect(document.querySelector('[aria-current="true"]')).toBeNull();
    await act(async () => {
      playerActions.clickTrack([player], player);
      playerActions.syncTime(7);
    });
    expect(document.querySelector('[aria-current="true"]')).toHaveTextContent('Second line');
    await act(async () => playerActions.syncTime(1));
    expect(document.querySelector('[aria-current="true"]')).toBeNull();
    await act(async () => playerActions.syncTime(30));
    expect(document.querySelector('[aria-current="true"]')).toHaveTextContent('Third line');
  });

  it('another track playing highlights nothing', async () => {
    renderUi(<LyricsView track={track} lines={lines} synced />);
    const other = { ...player, id: 'other' };
    await act(async () => {
      playerActions.clickTrack([other], other);
      playerActions.syncTime(7);
    });
    expect(document.querySelector('[aria-current="true"]')).toBeNull();
  });

  it('a click on a line starts the track there', async () => {
    renderUi(<LyricsView track={track} lines={lines} synced />);
    await userEvent.click(screen.getByRole('button', { name: /Third line/ }));
    const { playerState } = await import('@/player/store');
    expect(playerState.currentTrack?.id).toBe(track.id);
    expect(playerState.isPlaying).toBe(true);
    expect(playerState.currentTime).toBe(10);
  });

  it('unsynced lyrics are plain text: no seeking, no highlight', () => {
    renderUi(<LyricsView track={track} lines={lines} synced={false} />);
    expect(screen.queryByRole('button', { name: /First line/ })).toBeNull();
    expect(screen.getByText('First line')).toBeInTheDocument();
  });
});
