import { Button, Group } from '@mantine/core';
import {
  IconAdjustmentsHorizontal,
  IconCopyright,
  IconPlayerPauseFilled,
  IconPlayerPlayFilled,
} from '@tabler/icons-react';
import { useMemo } from 'react';
import { CopyLinkButton } from '@/components/copy-link-button';
import { useAllTracks, type Track } from '@/data';
import { DownloadButton, toPlayerTrack, toPlayerTracks } from '@/features/catalogue';
import {
  playerActions,
  pressToPrime,
  toggleStems,
  useCurrentTrack,
  useIsPlaying,
  useStems,
} from '@/player';
import { AddToPlaylistMenu } from './add-to-playlist-menu';
import { LikeTrackButton } from './like-track-button';

/** Play/pause, stems, like, add to playlist, share. */
export function TrackActions({ track }: { track: Track }) {
  const all = useAllTracks();
  const catalogue = useMemo(() => toPlayerTracks(all), [all]);
  const current = useCurrentTrack();
  const playing = useIsPlaying();
  const isPlaying = current?.id === track.id && playing;
  const stems = useStems();
  const stemsOn = current?.id === track.id && stems.status === 'on';
  const stemsLoading = current?.id === track.id && stems.status === 'loading';
  const trackIds = useMemo(() => [track.id], [track.id]);
  // Play, and Stems while another track is current, start this track: the press loads it.
  const press = pressToPrime(() => toPlayerTrack(track));
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
        {...press}
        onClick={() => playerActions.playFromTrackPage(toPlayerTrack(track), catalogue)}
      >
        {isPlaying ? 'Pause' : 'Play'}
      </Button>
      <Button
        size="md"
        radius="xl"
        variant={stemsOn ? 'light' : 'default'}
        leftSection={<IconAdjustmentsHorizontal size={18} aria-hidden />}
        loading={stemsLoading}
        aria-pressed={stemsOn}
        aria-label={`Stems of ${track.title}`}
        {...press}
        onClick={() => {
          // Stems belong to the playing track: start this one first.
          if (current?.id !== track.id) {
            playerActions.playFromTrackPage(toPlayerTrack(track), catalogue);
          }
          toggleStems();
        }}
      >
        Stems
      </Button>
      <LikeTrackButton trackId={track.id} />
      <AddToPlaylistMenu trackId={track.id} />
      <DownloadButton trackIds={trackIds} source="track" name={track.title} size="md" />
      <CopyLinkButton label="Share" copiedLabel="Copied to clipboard!" radius="xl" />
      <Button
        component="a"
        href={`/copyright/notice?track=${encodeURIComponent(track.id)}`}
        radius="xl"
        variant="subtle"
        color="gray"
        leftSection={<IconCopyright size={18} aria-hidden />}
      >
        Copyright notice
      </Button>
    </Group>
  );
}
