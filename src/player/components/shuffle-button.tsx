import { ActionIcon } from '@mantine/core';
import { IconArrowsShuffle } from '@tabler/icons-react';
import * as actions from '../actions';
import { usePlaybackModes } from '../hooks/use-playback-modes';

export function ShuffleButton() {
  const { shuffle } = usePlaybackModes();
  return (
    <ActionIcon
      variant={shuffle ? 'light' : 'subtle'}
      color={shuffle ? undefined : 'gray'}
      aria-label="Shuffle"
      title={shuffle ? 'Shuffle: on' : 'Shuffle: off'}
      aria-pressed={shuffle}
      onClick={actions.toggleShuffle}
    >
      <IconArrowsShuffle aria-hidden size="70%" />
    </ActionIcon>
  );
}
