import { ActionIcon } from '@mantine/core';
import { IconGripVertical } from '@tabler/icons-react';
import type { KeyboardEvent, PointerEvent } from 'react';

export interface ReorderHandleProps {
  title: string;
  trackId: string;
  active: boolean;
  /** id of the element that explains how to use the handle. */
  describedBy: string;
  onPointerDown: (event: PointerEvent<HTMLButtonElement>) => void;
  /** -1 up, +1 down, 'first' / 'last'. */
  onMove: (step: -1 | 1 | 'first' | 'last') => void;
}

const KEYS: Record<string, -1 | 1 | 'first' | 'last'> = {
  ArrowUp: -1,
  ArrowDown: 1,
  Home: 'first',
  End: 'last',
};

/** A row's drag handle: drag with a pointer, or focus it and use the arrow keys (Home / End). */
export function ReorderHandle({
  title,
  trackId,
  active,
  describedBy,
  onPointerDown,
  onMove,
}: ReorderHandleProps) {
  return (
    <ActionIcon
      variant={active ? 'filled' : 'subtle'}
      color={active ? 'ember' : 'gray'}
      aria-label={`Reorder ${title}`}
      aria-describedby={describedBy}
      aria-keyshortcuts="ArrowUp ArrowDown"
      data-reorder-handle={trackId}
      style={{ cursor: active ? 'grabbing' : 'grab', touchAction: 'none' }}
      onClick={(e) => e.stopPropagation()}
      onPointerDown={onPointerDown}
      onKeyDown={(e: KeyboardEvent) => {
        const step = KEYS[e.key];
        if (step === undefined) return;
        e.preventDefault();
        e.stopPropagation();
        onMove(step);
      }}
    >
      <IconGripVertical size={16} aria-hidden />
    </ActionIcon>
  );
}
