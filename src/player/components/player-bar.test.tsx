import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as actions from '../actions';
import { playerState } from '../store';
import { createTrack } from '../test-tracks';
import { PlayerBar } from './player-bar';
import { renderPlayer } from './render-player';

const a = createTrack({ id: 'a', title: 'Alpha', artist: 'Nova', duration: 200 });
const b = createTrack({ id: 'b', title: 'Beta', artist: 'Nova' });

beforeEach(() => actions.resetPlayer());

describe('PlayerBar', () => {
  it('is hidden without a current track and appears with one', async () => {
    renderPlayer(<PlayerBar />);
    expect(screen.queryByRole('region', { name: 'Player' })).not.toBeInTheDocument();
    await act(async () => actions.clickTrack([a, b], a));
    const bar = screen.getByRole('region', { name: 'Player' });
    expect(within(bar).getByText('Alpha')).toBeInTheDocument();
    expect(within(bar).getByText('Nova')).toBeInTheDocument();
  });

  it('play/pause is labelled with what it will do', async () => {
    act(() => actions.clickTrack([a], a));
    renderPlayer(<PlayerBar />);
    await userEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(playerState.isPlaying).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Play' }));
    expect(playerState.isPlaying).toBe(true);
  });

  it('next and previous move through the queue', async () => {
    act(() => actions.clickTrack([a, b], a));
    renderPlayer(<PlayerBar />);
    await userEvent.click(screen.getByRole('button', { name: 'Next track' }));
    expect(screen.getByText('Beta')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Previous track' }));
    expect(screen.getByText('Alpha')).toBeInTheDocument();
  });

  it('repeat label cycles off → all → one → off', async () => {
    act(() => actions.clickTrack([a], a));
    renderPlayer(<PlayerBar />);
    for (const [from, to] of [
      ['off', 'all'],
      ['all', 'one'],
      ['one', 'off'],
    ]) {
      await userEvent.click(screen.getByRole('button', { name: `Repeat: ${from}` }));
      expect(screen.getByRole('button', { name: `Repeat: ${to}` })).toBeInTheDocument();
    }
  });

  it('shuffle shows its state as pressed', async () => {
    act(() => actions.clickTrack([a], a));
    renderPlayer(<PlayerBar />);
    const shuffle = screen.getByRole('button', { name: 'Shuffle' });
    expect(shuffle).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(shuffle);
    expect(shuffle).toHaveAttribute('aria-pressed', 'true');
  });

  it('mute sets volume 0 and unmute restores the prior volume', async () => {
    act(() => {
      actions.clickTrack([a], a);
      actions.setVolume(0.35);
    });
    renderPlayer(<PlayerBar />);
    const volume = screen.getByRole('slider', { name: 'Volume' });
    expect(volume).toHaveAttribute('aria-valuetext', '35%');
    await userEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(playerState.volume).toBe(0);
    expect(volume).toHaveAttribute('aria-valuetext', 'Muted');
    await userEvent.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(playerState.volume).toBe(0.35);
    expect(volume).toHaveAttribute('aria-valuetext', '35%');
  });

  it('the volume slider goes from 0 to 1 in steps of 0.01', () => {
    act(() => actions.clickTrack([a], a));
    renderPlayer(<PlayerBar />);
    const volume = screen.getByRole('slider', { name: 'Volume' });
    expect(volume).toHaveAttribute('aria-valuemin', '0');
    expect(volume).toHaveAttribute('aria-valuemax', '1');
    act(() => volume.focus());
    // Mantine handles the key on the slider root (capture phase).
    act(() => {
      volume.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    });
    expect(playerState.volume).toBeCloseTo(0.69);
  });

  it('shows elapsed and total time, and the arrow keys seek by 5 s', () => {
    act(() => {
      actions.clickTrack([a], a);
      actions.syncDuration(200);
      actions.syncTime(65);
    });
    renderPlayer(<PlayerBar />);
    expect(screen.getByText('1:05')).toBeInTheDocument();
    expect(screen.getByText('3:20')).toBeInTheDocument();
    const seek = screen.getByRole('slider', { name: 'Seek' });
    expect(seek).toHaveAttribute('aria-valuetext', '1 minute 5 seconds of 3 minutes 20 seconds');
    act(() => {
      seek.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    });
    expect(playerState.currentTime).toBe(70);
    act(() => {
      seek.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
      seek.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
    });
    expect(playerState.currentTime).toBe(60);
  });

  it('the like button reflects `liked` and calls back with the track', async () => {
    const onToggleLike = vi.fn();
    act(() => actions.clickTrack([a], a));
    const { rerender } = renderPlayer(<PlayerBar liked={false} onToggleLike={onToggleLike} />);
    const like = screen.getByRole('button', { name: 'Save to likes' });
    expect(like).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(like);
    expect(onToggleLike).toHaveBeenCalledWith(a);
    rerender(<PlayerBar liked onToggleLike={onToggleLike} />);
    expect(screen.getByRole('button', { name: 'Remove from likes' })).toBeInTheDocument();
  });

  it('has no like button without a callback', () => {
    act(() => actions.clickTrack([a], a));
    renderPlayer(<PlayerBar />);
    expect(screen.queryByRole('button', { name: 'Save to likes' })).not.toBeInTheDocument();
  });

  it('the queue panel toggles and lists the queue', async () => {
    act(() => actions.clickTrack([a, b], a));
    renderPlayer(<PlayerBar />);
    await userEvent.click(screen.getByRole('button', { name: 'Queue' }));
    // The panel's code loads on first open.
    const queue = await screen.findByRole('list', { name: 'Queue' });
    expect(within(queue).getAllByRole('button')).toHaveLength(2);
    expect(within(queue).getByRole('button', { current: true })).toHaveTextContent('Alpha');
    await userEvent.click(within(queue).getByText('Beta'));
    expect(playerState.currentTrack?.id).toBe('b');
  });

  it('shows an audio error until dismissed', async () => {
    act(() => {
      actions.clickTrack([a], a);
      actions.reportError('Couldn\'t load "Alpha".');
    });
    renderPlayer(<PlayerBar />);
    expect(screen.getByRole('alert')).toHaveTextContent('Couldn\'t load "Alpha".');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss the player error' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('opens the now playing view', async () => {
    act(() => actions.clickTrack([a], a));
    renderPlayer(<PlayerBar />);
    await userEvent.click(screen.getByRole('button', { name: 'Open now playing' }));
    expect(await screen.findByRole('dialog', { name: 'Now playing' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Close now playing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
