import { ActionIcon } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import type { MouseEvent, Ref } from 'react';
import type { Track } from '@/data';

export interface TrackOptionsMenuProps {
  track: Track;
  /** Shown only where the list allows removal ('Remove from playlist', 'Unlike'...). */
  onRemove?: () => void;
  removeLabel?: string;
}

/** A row's 'More options' button: the plain one before first use, and the menu's target after. */
export function MenuButton({
  title,
  onClick,
  onPointerEnter,
  onFocus,
  busy = false,
  ref,
  ...others
}: {
  title: string;
  onClick?: (event: MouseEvent<HTMLButtonElement>) => void;
  onPointerEnter?: () => void;
  onFocus?: () => void;
  /** While the menu's code arrives (a moment, on the first use in a page). */
  busy?: boolean;
  ref?: Ref<HTMLButtonElement>;
}) {
  return (
    <ActionIcon
      ref={ref}
      variant="subtle"
      color="gray"
      aria-label={`More options for ${title}`}
      aria-haspopup="menu"
      aria-busy={busy || undefined}
      onClick={onClick}
      onPointerEnter={onPointerEnter}
      onFocus={onFocus}
      {...others}
    >
      <IconDots size={18} aria-hidden />
    </ActionIcon>
  );
}
