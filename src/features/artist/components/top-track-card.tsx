import { Button, Group, Paper, Stack, Text, type ButtonProps } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { AnchorLink } from '@/components/router-links';
import type { Track } from '@/data';
import { albumLabel, CoverArt, toPlayerTracks } from '@/features/catalogue';
import {
  playerActions,
  pressToPrime,
  useCurrentTrack,
  useIsPlaying,
  type PressToPrimeProps,
} from '@/player';
import { formatCount } from '../artist-stats';
import classes from './artist.module.css';

/** Spec 2: the most played track, with 'Dive in' (plays it, then the rest of the top tracks). */
export function TopTrackCard({ track, queue }: { track: Track; queue: readonly Track[] }) {
  const current = useCurrentTrack();
  const playing = useIsPlaying();
  const isPlaying = current?.id === track.id && playing;
  // 'Dive in' starts the top track (as dive finds it in the queue): its press loads it.
  const press = pressToPrime(() => toPlayerTracks(queue).find((t) => t.id === track.id));
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} className={classes.topTrack}>
      <Group gap="lg" wrap="nowrap" align="center">
        <CoverArt src={track.coverImage} seed={track.id} size={96} radius="md" />
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Text size="xs" fw={700} tt="uppercase" c="ember.4" lts="0.1em">
            Top track
          </Text>
          <AnchorLink
            to="/track/$trackId"
            params={{ trackId: track.id }}
            fw={700}
            fz="lg"
            c="gray.0"
            truncate
            display="block"
          >
            {track.title}
          </AnchorLink>
          <Text size="sm" c="gray.4" truncate>
            {albumLabel(track.album)} · {formatCount(track.plays)} plays
          </Text>
        </Stack>
        <DiveButton
          playing={isPlaying}
          press={press}
          onClick={() => dive(track, queue)}
          size="md"
          visibleFrom="xs"
        />
      </Group>
      <DiveButton
        playing={isPlaying}
        press={press}
        onClick={() => dive(track, queue)}
        fullWidth
        mt="md"
        hiddenFrom="xs"
      />
    </Paper>
  );
}

/** 'Dive in', or 'Pause' while the top track plays: beside the track, or under it on a phone. */
function DiveButton({
  playing,
  press,
  onClick,
  ...layout
}: { playing: boolean; press: PressToPrimeProps; onClick: () => void } & Pick<
  ButtonProps,
  'size' | 'fullWidth' | 'mt' | 'visibleFrom' | 'hiddenFrom'
>) {
  const Icon = playing ? IconPlayerPauseFilled : IconPlayerPlayFilled;
  return (
    <Button
      radius="xl"
      leftSection={<Icon size={18} aria-hidden />}
      {...press}
      onClick={onClick}
      {...layout}
    >
      {playing ? 'Pause' : 'Dive in'}
    </Button>
  );
}

function dive(track: Track, queue: readonly Track[]) {
  const list = toPlayerTracks(queue);
  const first = list.find((t) => t.id === track.id);
  if (first) playerActions.clickTrack(list, first);
}
