import { ActionIcon, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { AnchorLink } from '@/components/router-links';
import { usePlaylist, type Track } from '@/data';
import { albumLabel, CoverArt, PlaylistCard, toPlayerTrack } from '@/features/catalogue';
import { playerActions, pressToPrime, useCurrentTrack, useIsPlaying } from '@/player';

function FeaturedTrack({ track }: { track: Track }) {
  const current = useCurrentTrack();
  const playing = useIsPlaying() && current?.id === track.id;
  return (
    <Paper withBorder radius="md" p="md" bg="dark.7" h="100%">
      <Text size="xs" fw={700} tt="uppercase" c="ember.4" lts="0.1em" mb="sm">
        Featured track
      </Text>
      <Group gap="md" wrap="nowrap">
        <CoverArt src={track.coverImage} seed={track.id} size={72} radius="md" />
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <AnchorLink
            to="/track/$trackId"
            params={{ trackId: track.id }}
            fw={700}
            c="gray.0"
            truncate
            display="block"
          >
            {track.title}
          </AnchorLink>
          <Text size="sm" c="gray.4" truncate>
            {track.artist} · {albumLabel(track.album)}
          </Text>
        </Stack>
        <ActionIcon
          size={44}
          radius="xl"
          color="ember"
          aria-label={playing ? `Pause ${track.title}` : `Play ${track.title}`}
          {...pressToPrime(() => toPlayerTrack(track))}
          onClick={() => {
            const t = toPlayerTrack(track);
            playerActions.clickTrack([t], t);
          }}
        >
          {playing ? <IconPlayerPauseFilled size={20} /> : <IconPlayerPlayFilled size={20} />}
        </ActionIcon>
      </Group>
    </Paper>
  );
}

function FeaturedPlaylist({ id }: { id: string }) {
  const playlist = usePlaylist(id);
  if (!playlist) return null;
  return (
    <Paper withBorder radius="md" p="md" bg="dark.7" h="100%">
      <Text size="xs" fw={700} tt="uppercase" c="ember.4" lts="0.1em" mb="sm">
        Featured playlist
      </Text>
      <div style={{ maxWidth: 180 }}>
        <PlaylistCard playlist={playlist} />
      </div>
    </Paper>
  );
}

/** Spec 2: the featured track and playlist, each only when set. */
export function FeaturedSections({
  track,
  playlistId,
}: {
  track: Track | null;
  playlistId: string | null;
}) {
  if (!track && !playlistId) return null;
  return (
    <section aria-labelledby="featured-heading">
      <Title order={2} fz="xl" mb="sm" id="featured-heading">
        Featured
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {track && <FeaturedTrack track={track} />}
        {playlistId && <FeaturedPlaylist id={playlistId} />}
      </SimpleGrid>
    </section>
  );
}
