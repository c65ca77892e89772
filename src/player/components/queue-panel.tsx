import { Drawer, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import * as actions from '../actions';
import { useCurrentTrack } from '../hooks/use-current-track';
import { useQueue } from '../hooks/use-queue';
import { pressToPrime } from '../press-to-prime';
import { TrackCover } from './track-cover';

export interface QueuePanelProps {
  opened: boolean;
  onClose: () => void;
}

/**
 * The play queue; a row plays its track (or toggles pause on the current one), its track loading
 * from the press (pressToPrime).
 */
export function QueuePanel({ opened, onClose }: QueuePanelProps) {
  const queue = useQueue();
  const current = useCurrentTrack();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="sm"
      title="Queue"
      closeButtonProps={{ 'aria-label': 'Close queue' }}
    >
      {queue.length === 0 ? (
        <Text c="dimmed">No tracks in queue</Text>
      ) : (
        <Stack component="ol" gap={4} p={0} m={0} style={{ listStyle: 'none' }} aria-label="Queue">
          {queue.map((track, index) => {
            const isCurrent = track.id === current?.id;
            return (
              <li key={`${track.id}-${index}`}>
                <UnstyledButton
                  w="100%"
                  p={6}
                  aria-current={isCurrent ? 'true' : undefined}
                  {...pressToPrime(track)}
                  onClick={() => actions.clickTrack(queue, track)}
                  style={{ borderRadius: 'var(--mantine-radius-sm)' }}
                  bg={isCurrent ? 'dark.5' : undefined}
                >
                  <Group gap="sm" wrap="nowrap">
                    <TrackCover track={track} size={36} />
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" truncate c={isCurrent ? 'ember.4' : undefined}>
                        {track.title}
                      </Text>
                      <Text size="xs" c="dimmed" truncate>
                        {track.artist}
                      </Text>
                    </div>
                  </Group>
                </UnstyledButton>
              </li>
            );
          })}
        </Stack>
      )}
    </Drawer>
  );
}
