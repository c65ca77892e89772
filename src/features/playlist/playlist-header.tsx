import { Badge, Button, Flex, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled, IconStarFilled } from '@tabler/icons-react';
import { useMemo } from 'react';
import { CopyLinkButton } from '@/components/copy-link-button';
import { useProfile, type Playlist, type Track } from '@/data';
import { DownloadButton, toPlayerTracks, trackCountLabel } from '@/features/catalogue';
import { formatRuntime, totalDuration } from '@/lib/format-runtime';
import { playerActions, playlistStart, pressToPrime, useIsPlayingFrom } from '@/player';
import { PlaylistCover } from './playlist-cover';
import { PlaylistMenu } from './playlist-menu';

export interface PlaylistHeaderProps {
  playlist: Playlist;
  tracks: readonly Track[];
  isOwner: boolean;
  featured: boolean;
  /** The playlist's tracks are not in the mirror yet (first sync): count from its ids. */
  tracksLoading?: boolean;
}

/** Cover, name, description, creator, track count, runtime 'Hh MMm', play/pause, share, menu. */
export function PlaylistHeader({
  playlist,
  tracks,
  isOwner,
  featured,
  tracksLoading = false,
}: PlaylistHeaderProps) {
  const creator = useProfile(playlist.createdBy);
  const queue = useMemo(() => toPlayerTracks(tracks), [tracks]);
  const playing = useIsPlayingFrom(queue);
  const runtime = formatRuntime(totalDuration(tracks));

  return (
    <Stack gap="lg">
      <Flex
        direction={{ base: 'column', sm: 'row' }}
        align={{ base: 'center', sm: 'flex-end' }}
        gap={{ base: 'md', sm: 'xl' }}
        style={{ '--playlist-cover-size': 'clamp(168px, 48vw, 232px)' }}
      >
        <PlaylistCover playlist={playlist} tracks={tracks} />
        <Stack gap={8} miw={0} w="100%" ta={{ base: 'center', sm: 'left' }}>
          <Flex gap="xs" align="center" justify={{ base: 'center', sm: 'flex-start' }}>
            <Text tt="uppercase" size="xs" fw={700} c="gray.4" style={{ letterSpacing: 1 }}>
              Playlist
            </Text>
            {featured ? (
              <Badge
                size="sm"
                variant="light"
                color="ember"
                leftSection={<IconStarFilled size={10} aria-hidden />}
              >
                Featured
              </Badge>
            ) : null}
          </Flex>
          <Title
            order={1}
            fz={{ base: 30, sm: 44, md: 56 }}
            lh={1.05}
            style={{ overflowWrap: 'anywhere' }}
          >
            {playlist.name}
          </Title>
          {playlist.description ? (
            <Text c="gray.4" size="sm" lineClamp={3} style={{ whiteSpace: 'pre-line' }}>
              {playlist.description}
            </Text>
          ) : null}
          <Text size="sm" c="gray.3">
            {creator?.name ? (
              <>
                <Text span fw={600} c="gray.0">
                  {creator.name}
                </Text>
                {' · '}
              </>
            ) : null}
            <span data-testid="playlist-track-count">
              {trackCountLabel(tracksLoading ? playlist.trackIds.length : tracks.length)}
            </span>
            {tracksLoading ? null : (
              <>
                {' · '}
                <span data-testid="playlist-runtime" aria-label={`Total runtime ${runtime}`}>
                  {runtime}
                </span>
              </>
            )}
          </Text>
        </Stack>
      </Flex>
      <Flex gap="sm" align="center" wrap="wrap" justify={{ base: 'center', sm: 'flex-start' }}>
        <Button
          size="lg"
          radius="xl"
          disabled={tracks.length === 0}
          leftSection={
            playing ? (
              <IconPlayerPauseFilled size={20} aria-hidden />
            ) : (
              <IconPlayerPlayFilled size={20} aria-hidden />
            )
          }
          aria-label={playing ? 'Pause playlist' : 'Play playlist'}
          // The press loads the track the click starts (the first; none while one of the
          // playlist's tracks is current: the click pauses or resumes it).
          {...pressToPrime((current) => playlistStart({ currentTrack: current }, queue))}
          onClick={() => playerActions.playPlaylist(queue)}
        >
          {playing ? 'Pause' : 'Play'}
        </Button>
        <DownloadButton
          trackIds={playlist.trackIds}
          source={`playlist:${playlist.id}`}
          name={playlist.name}
          size="md"
        />
        <CopyLinkButton label="Share" copiedLabel="Link copied!" radius="xl" size="md" />
        {isOwner ? <PlaylistMenu playlist={playlist} featured={featured} /> : null}
      </Flex>
    </Stack>
  );
}
