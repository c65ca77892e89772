import { useEffect, useRef, useState } from 'react';
import { LazyOverlay } from '@/components/lazy-overlay';
import * as actions from '../actions';
import { playerState } from '../store';
import type { PlayerTrack } from '../types';
import { SEEK_STEP_SECONDS } from '../store';
import { lazyChunk } from '@/lib/lazy-chunk';

const ShortcutsHelpDialog = lazyChunk(() =>
  import('./shortcuts-help-dialog').then((m) => ({ default: m.ShortcutsHelpDialog })),
);

export const VOLUME_STEP = 0.05;

export interface KeyboardShortcutsProps {
  /** Toggles the like of the current track (L); without it L does nothing. */
  onToggleLike?: (track: PlayerTrack) => void;
}

/** Where typing happens: no shortcut at all. */
function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target.closest('input, textarea, select, [contenteditable="true"], [role="textbox"]') !== null
  );
}

/** Controls that handle these keys themselves (Space on a button, arrows on a slider). */
function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (key === ' ') return target.closest('button, a, [role="button"], [role="checkbox"]') !== null;
  if (key.startsWith('Arrow')) {
    return (
      target.closest('[role="slider"], [role="listbox"], [role="menu"], [role="tablist"]') !== null
    );
  }
  return false;
}

/**
 * Global player keys: Space play/pause, ←/→ seek, ↑/↓ volume, M mute, S shuffle, R repeat,
 * L like, ? help. Ignored while typing and with Ctrl, Alt or Meta held. Render once, in the
 * layout that shows the player bar.
 */
export function KeyboardShortcuts({ onToggleLike }: KeyboardShortcutsProps) {
  const [helpOpen, setHelpOpen] = useState(false);
  const likeRef = useRef(onToggleLike);
  useEffect(() => {
    likeRef.current = onToggleLike;
  }, [onToggleLike]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey) return;
      if (isEditable(event.target) || ownsKey(event.target, event.key)) return;
      const run: Record<string, () => void> = {
        ' ': actions.togglePlay,
        ArrowLeft: () => actions.seekBy(-SEEK_STEP_SECONDS),
        ArrowRight: () => actions.seekBy(SEEK_STEP_SECONDS),
        ArrowUp: () => actions.changeVolumeBy(VOLUME_STEP),
        ArrowDown: () => actions.changeVolumeBy(-VOLUME_STEP),
        m: actions.toggleMute,
        s: actions.toggleShuffle,
        r: actions.cycleRepeat,
        l: () => {
          const track = playerState.currentTrack;
          if (track) likeRef.current?.(track);
        },
        '?': () => setHelpOpen(true),
      };
      const key = event.key.length === 1 && event.key !== ' ' ? event.key.toLowerCase() : event.key;
      const handler = run[key];
      if (!handler) return;
      // Without a track, Space and the arrows keep their page meaning (scrolling).
      if (!playerState.currentTrack && (key === ' ' || key.startsWith('Arrow'))) return;
      event.preventDefault();
      handler();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <LazyOverlay opened={helpOpen}>
      <ShortcutsHelpDialog opened={helpOpen} onClose={() => setHelpOpen(false)} />
    </LazyOverlay>
  );
}
