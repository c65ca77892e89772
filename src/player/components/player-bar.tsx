import { ActionIcon, Box, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronUp, IconPlaylist } from '@tabler/icons-react';
import { useState } from 'react';
import { LazyOverlay } from '@/components/lazy-overlay';
import { useCurrentTrack } from '../hooks/use-current-track';
import type { PlayerTrack } from '../types';
import { LikeButton } from './like-button';
import { PlayerErrorNotice } from './player-error-notice';
import { RepeatButton } from './repeat-button';
import { SeekBar } from './seek-bar';
import { StemsButton, StemsPanel } from './stems-controls';
import { ShuffleButton } from './shuffle-button';
import { TrackCover } from './track-cover';
import { TransportControls } from './transport-controls';
import { VolumeControl } from './volume-control';
import { lazyChunk } from '@/lib/lazy-chunk';

const QueuePanel = lazyChunk(() =>
  import('./queue-panel').then((m) => ({ default: m.QueuePanel })),
);
const NowPlayingView = lazyChunk(() =>
  import('./now-playing-view').then((m) => ({ default: m.NowPlayingView })),
);

export interface PlayerBarProps {
  /** Whether the current track is in the listener's likes (likes live in the data layer). */
  liked?: boolean;
  /** Toggles the like of the current track; without it there is no like button. */
  onToggleLike?: (track: PlayerTrack) => void;
}

/**
 * The bottom player (spec section 2): shown only when there is a current track. Holds the queue
 * panel and the full-screen now playing view.
 */
export function PlayerBar({ liked = false, onToggleLike }: PlayerBarProps) {
  const track = useCurrentTrack();
  const [queueOpen, setQueueOpen] = useState(false);
  const [nowPlayingOpen, setNowPlayingOpen] = useState(false);
  if (!track) return null;
  const toggleLike = onToggleLike ? () => onToggleLike(track) : undefined;

  return (
    <Box
      component="section"
      aria-label="Player"
      px="md"
      py="xs"
      bg="dark.8"
      style={{ borderTop: '1px solid var(--mantine-color-dark-5)' }}
    >
      <Group justify="space-between" wrap="nowrap" gap="md">
        {/* On a phone the track takes the room the controls leave (it truncates); from sm up the
            three columns share the width 1:2:1. */}
        <Group gap="sm" wrap="nowrap" miw={0} flex={{ base: '1 1 auto', sm: '1 1 0' }}>
          <UnstyledButton
            aria-label={`Open now playing: ${track.title} by ${track.artist}`}
            onClick={() => setNowPlayingOpen(true)}
            miw={0}
          >
            <Group gap="sm" wrap="nowrap" miw={0}>
              <TrackCover track={track} size={48} />
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={600} truncate>
                  {track.title}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {track.artist}
                </Text>
              </div>
            </Group>
          </UnstyledButton>
          {toggleLike && (
            <Box visibleFrom="sm">
              <LikeButton liked={liked} onToggle={toggleLike} />
            </Box>
          )}
        </Group>

        <Stack gap={2} align="center" flex={{ base: '0 0 auto', sm: '2 1 0' }} maw={640}>
          <TransportControls size="md" />
          <Box w="100%" visibleFrom="sm">
            <SeekBar />
          </Box>
          <PlayerErrorNotice />
        </Stack>

        <Group gap={4} wrap="nowrap" justify="flex-end" flex={{ base: '0 0 auto', sm: '1 1 0' }}>
          <Group gap={4} wrap="nowrap" visibleFrom="md">
            <ShuffleButton />
            <RepeatButton />
            <VolumeControl />
          </Group>
          <StemsButton />
          <ActionIcon
            variant={queueOpen ? 'light' : 'subtle'}
            color={queueOpen ? undefined : 'gray'}
            aria-label="Queue"
            title="Queue"
            aria-pressed={queueOpen}
            onClick={() => setQueueOpen((open) => !open)}
          >
            <IconPlaylist aria-hidden size="70%" />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label="Open now playing"
            title="Open now playing"
            onClick={() => setNowPlayingOpen(true)}
          >
            <IconChevronUp aria-hidden size="70%" />
          </ActionIcon>
        </Group>
      </Group>
      <StemsPanel />

      <LazyOverlay opened={queueOpen}>
        <QueuePanel opened={queueOpen} onClose={() => setQueueOpen(false)} />
      </LazyOverlay>
      <LazyOverlay opened={nowPlayingOpen}>
        <NowPlayingView
          opened={nowPlayingOpen}
          onClose={() => setNowPlayingOpen(false)}
          liked={liked}
          onToggleLike={toggleLike}
        />
      </LazyOverlay>
    </Box>
  );
}
