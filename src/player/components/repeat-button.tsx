import { ActionIcon } from '@mantine/core';
import { IconRepeat, IconRepeatOnce } from '@tabler/icons-react';
import * as actions from '../actions';
import { usePlaybackModes } from '../hooks/use-playback-modes';

/** Cycles repeat off → all → one; its label says the current mode. */
export function RepeatButton() {
  const { repeat } = usePlaybackModes();
  const label = `Repeat: ${repeat}`;
  return (
    <ActionIcon
      variant={repeat === 'off' ? 'subtle' : 'light'}
      color={repeat === 'off' ? 'gray' : undefined}
      aria-label={label}
      title={label}
      onClick={actions.cycleRepeat}
    >
      {repeat === 'one' ? (
        <IconRepeatOnce aria-hidden size="70%" />
      ) : (
        <IconRepeat aria-hidden size="70%" />
      )}
    </ActionIcon>
  );
}
