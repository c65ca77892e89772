import { CloseButton, Group, Text } from '@mantine/core';
import * as actions from '../actions';
import { usePlayerError } from '../hooks/use-player-error';

/** The last audio error, announced to screen readers, until dismissed or a new track is chosen. */
export function PlayerErrorNotice() {
  const error = usePlayerError();
  if (!error) return null;
  return (
    <Group gap={4} wrap="nowrap" role="alert">
      <Text size="xs" c="red.4">
        {error}
      </Text>
      <CloseButton size="xs" aria-label="Dismiss the player error" onClick={actions.clearError} />
    </Group>
  );
}
