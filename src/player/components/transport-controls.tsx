import { ActionIcon, Group } from '@mantine/core';
import {
  IconPlayerPauseFilled,
  IconPlayerPlayFilled,
  IconPlayerSkipBackFilled,
  IconPlayerSkipForwardFilled,
} from '@tabler/icons-react';
import * as actions from '../actions';
import { useIsPlaying } from '../hooks/use-is-playing';

export interface TransportControlsProps {
  size?: 'md' | 'lg' | 'xl';
}

/** Previous, play/pause, next. */
export function TransportControls({ size = 'lg' }: TransportControlsProps) {
  const isPlaying = useIsPlaying();
  const playLabel = isPlaying ? 'Pause' : 'Play';
  return (
    <Group gap="xs" wrap="nowrap" justify="center">
      <ActionIcon
        variant="subtle"
        color="gray"
        size={size}
        aria-label="Previous track"
        title="Previous track"
        onClick={actions.previous}
      >
        <IconPlayerSkipBackFilled aria-hidden size="60%" />
      </ActionIcon>
      <ActionIcon
        variant="filled"
        radius="xl"
        size={size === 'xl' ? 64 : size}
        aria-label={playLabel}
        title={playLabel}
        onClick={actions.togglePlay}
      >
        {isPlaying ? (
          <IconPlayerPauseFilled aria-hidden size="55%" />
        ) : (
          <IconPlayerPlayFilled aria-hidden size="55%" />
        )}
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="gray"
        size={size}
        aria-label="Next track"
        title="Next track"
        onClick={actions.next}
      >
        <IconPlayerSkipForwardFilled aria-hidden size="60%" />
      </ActionIcon>
    </Group>
  );
}
