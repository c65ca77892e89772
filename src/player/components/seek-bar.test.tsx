import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as actions from '../actions';
import { playerState } from '../store';
import { createTrack } from '../test-tracks';
import { renderPlayer } from './render-player';
import { SeekBar } from './seek-bar';

// The server's peaks for track 'a' only (the read on a real server: playback.integration.test.ts).
vi.mock('@/data/remote/waveform-remote', () => ({
  fetchWaveform: (id: string) =>
    Promise.resolve(
      id === 'a'
        ? {
            data: Array.from({ length: 400 }, (_, i) => (i % 2 ? 100 : -100)),
            length: 200,
            bits: 8,
          }
        : null,
    ),
}));

const a = createTrack({ id: 'a', title: 'Alpha', duration: 200 });
const b = createTrack({ id: 'b', title: 'Beta', duration: 200 });

beforeEach(() => actions.resetPlayer());

describe('SeekBar with a waveform', () => {
  it('draws the peaks under the same accessible slider: label, value text, 5 s arrow steps', async () => {
    act(() => {
      actions.clickTrack([a, b], a);
      actions.syncDuration(200);
      actions.syncTime(50);
    });
    const { container } = renderPlayer(<SeekBar />);
    await waitFor(() => expect(screen.getByTestId('waveform')).toBeInTheDocument());
    // A quarter played: the played colour is clipped at a quarter of the bars.
    expect(container.querySelector('clipPath rect')).toHaveAttribute('width', '40');
    const seek = screen.getByRole('slider', { name: 'Seek' });
    expect(seek).toHaveAttribute('aria-valuetext', '50 seconds of 3 minutes 20 seconds');
    act(() => {
      seek.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    });
    expect(playerState.currentTime).toBe(55);
  });

  it('stays a plain slider for a track without peaks', async () => {
    act(() => actions.clickTrack([a, b], b));
    renderPlayer(<SeekBar />);
    expect(screen.getByRole('slider', { name: 'Seek' })).toBeInTheDocument();
    await act(() => Promise.resolve());
    expect(screen.queryByTestId('waveform')).not.toBeInTheDocument();
  });
});
