import { Button, Group } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useMemo } from 'react';
import { CopyLinkButton } from '@/components/copy-link-button';
import { useAllTracks, type Track } from '@/data';
import { toPlayerTrack, toPlayerTracks } from '@/features/catalogue';
import { playerActions, useCurrentTrack, useIsPlaying } from '@/player';
import { AddToPlaylistMenu } from './add-to-playlist-menu';
import { LikeTrackButton } from './like-track-button';

/** Play/pause, like, add to playlist, share. */
export function TrackActions({ track }: { track: Track }) {
  const all = useAllTracks();
  const catalogue = useMemo(() => toPlayerTracks(all), [all]);
  const current = useCurrentTrack();
  const playing = useIsPlaying();
  const isPlaying = current?.id === track.id && playing;
  return (
    <Group gap="sm" mt="xs">
      <Button
        size="md"
        radius="xl"
        leftSection={
          isPlaying ? (
            <IconPlayerPauseFilled size={18} aria-hidden />
          ) : (
            <IconPlayerPlayFilled size={18} aria-hidden />
          )
        }
        aria-label={`${isPlaying ? 'Pause' : 'Play'} ${track.title}`}
        onClick={() => playerActions.playFromTrackPage(toPlayerTrack(track), catalogue)}
      >
        {isPlaying ? 'Pause' : 'Play'}
      </Button>
      <LikeTrackButton trackId={track.id} />
      <AddToPlaylistMenu trackId={track.id} />
      <CopyLinkButton label="Share" copiedLabel="Copied to clipboard!" radius="xl" />
    </Group>
  );
}
