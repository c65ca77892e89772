import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as actions from '../actions';
import { playerState } from '../store';
import { createTrack } from '../test-tracks';
import { DRAG_TO_CLOSE_PX, NowPlayingView } from './now-playing-view';
import { renderPlayer } from './render-player';

const a = createTrack({ id: 'a', title: 'Alpha', artist: 'Nova', album: 'Tides' });

beforeEach(() => {
  actions.resetPlayer();
  actions.clickTrack([a], a);
});

function drag(from: number, to: number, end: 'pointerUp' | 'pointerCancel' = 'pointerUp') {
  const area = screen.getByTestId('now-playing-drag-area');
  fireEvent.pointerDown(area, { clientY: from, pointerId: 1, button: 0, pointerType: 'touch' });
  fireEvent.pointerMove(area, { clientY: to, pointerId: 1, pointerType: 'touch' });
  fireEvent[end](area, { clientY: to, pointerId: 1, pointerType: 'touch' });
}

describe('NowPlayingView', () => {
  it('shows the track full screen with all controls', () => {
    renderPlayer(<NowPlayingView opened onClose={() => undefined} />);
    expect(screen.getByRole('dialog', { name: 'Now playing' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Alpha' })).toBeInTheDocument();
    expect(screen.getByText('Nova · Tides')).toBeInTheDocument();
    for (const name of [
      'Pause',
      'Next track',
      'Previous track',
      'Shuffle',
      'Repeat: off',
      'Mute',
    ]) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    expect(screen.getByRole('slider', { name: 'Seek' })).toBeInTheDocument();
  });

  it('turns loudness normalisation off and on', async () => {
    renderPlayer(<NowPlayingView opened onClose={() => undefined} />);
    const toggle = screen.getByRole('switch', { name: /Normalise volume/ });
    expect(toggle).toBeChecked();
    await userEvent.click(toggle);
    expect(toggle).not.toBeChecked();
    expect(playerState.normalise).toBe(false);
    await userEvent.click(toggle);
    expect(playerState.normalise).toBe(true);
  });

  it('closes with its close button', async () => {
    const onClose = vi.fn();
    renderPlayer(<NowPlayingView opened onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Close now playing' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it(`closes on a downward drag over ${DRAG_TO_CLOSE_PX} px`, () => {
    const onClose = vi.fn();
    renderPlayer(<NowPlayingView opened onClose={onClose} />);
    drag(100, 100 + DRAG_TO_CLOSE_PX + 1);
    expect(onClose).toHaveBeenCalledOnce();
  });

  it.each([
    ['exactly 120 px', 100, 220],
    ['a short drag', 100, 180],
    ['an upward drag', 300, 100],
  ])('stays open after %s', (_name, from, to) => {
    const onClose = vi.fn();
    renderPlayer(<NowPlayingView opened onClose={onClose} />);
    drag(from, to);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('stays open when the drag is cancelled', () => {
    const onClose = vi.fn();
    renderPlayer(<NowPlayingView opened onClose={onClose} />);
    drag(0, 400, 'pointerCancel');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('keeps the browser from dragging the cover away (which would cancel the pointer)', () => {
    renderPlayer(<NowPlayingView opened onClose={() => undefined} />);
    const area = screen.getByTestId('now-playing-drag-area');
    const cover = area.querySelector('img, div') ?? area;
    expect(fireEvent.dragStart(cover)).toBe(false);
  });

  it('follows the finger while dragging', () => {
    renderPlayer(<NowPlayingView opened onClose={() => undefined} />);
    const area = screen.getByTestId('now-playing-drag-area');
    fireEvent.pointerDown(area, { clientY: 10, pointerId: 1, pointerType: 'touch' });
    fireEvent.pointerMove(area, { clientY: 70, pointerId: 1, pointerType: 'touch' });
    expect(area.style.transform).toBe('translateY(60px)');
  });

  it('a drag that starts on a control is the control’s, not the view’s', () => {
    const onClose = vi.fn();
    renderPlayer(<NowPlayingView opened onClose={onClose} />);
    const seek = screen.getByRole('slider', { name: 'Seek' });
    fireEvent.pointerDown(seek, { clientY: 0, pointerId: 1, pointerType: 'touch' });
    fireEvent.pointerMove(seek, { clientY: 400, pointerId: 1, pointerType: 'touch' });
    fireEvent.pointerUp(seek, { clientY: 400, pointerId: 1, pointerType: 'touch' });
    expect(onClose).not.toHaveBeenCalled();
  });

  it('renders nothing when the track is gone', async () => {
    renderPlayer(<NowPlayingView opened onClose={() => undefined} />);
    await act(async () => actions.stop());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('offers the like toggle when given one', async () => {
    const onToggleLike = vi.fn();
    renderPlayer(
      <NowPlayingView opened onClose={() => undefined} liked onToggleLike={onToggleLike} />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Remove from likes' }));
    expect(onToggleLike).toHaveBeenCalledOnce();
  });
});
