import { Box, Center, Container, Loader, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { ButtonLink } from '@/components/router-links';
import { usePlaylistTracks, useProfile } from '@/data';
import { usePlaylistLookup } from '@/data/repositories/use-playlist-lookup';
import { useCurrentUserId } from '@/features/catalogue';
import { PlaylistHeader } from './playlist-header';
import { PlaylistPanels } from './playlist-panels';
import { PlaylistTracks } from './playlist-tracks';

/**
 * /playlist/{id} (spec 2). Anyone signed in may open and play a playlist (RLS: readable by
 * everyone); only its creator sees the owner actions. An unknown id goes to the playlists tab,
 * once the on-demand fetch has settled.
 */
export function PlaylistPage({ id }: { id: string }) {
  const navigate = useNavigate();
  const lookup = usePlaylistLookup(id);
  const tracks = usePlaylistTracks(id);
  const userId = useCurrentUserId();
  const profile = useProfile(userId);
  const redirected = useRef(false);

  useEffect(() => {
    if (lookup.status !== 'missing' || redirected.current) return;
    redirected.current = true;
    void navigate({ to: '/library', search: { tab: 'playlists' }, replace: true });
  }, [lookup.status, navigate]);

  if (lookup.status === 'unavailable') {
    return (
      <Center py={96} px="md">
        <Stack align="center" gap="sm" ta="center">
          <Title order={1} fz={24}>
            Playlist unavailable
          </Title>
          <Text c="dimmed">This playlist can't be loaded right now. Check your connection.</Text>
          <ButtonLink to="/library" search={{ tab: 'playlists' }} variant="light">
            Your playlists
          </ButtonLink>
        </Stack>
      </Center>
    );
  }
  const { playlist } = lookup;
  const tracksPending = playlist !== null && playlist.trackIds.length > 0 && tracks.length === 0;
  if (!playlist) {
    return (
      <Center py={96}>
        <Loader aria-label="Loading playlist" />
      </Center>
    );
  }
  const isOwner = playlist.createdBy === userId;
  const featured = isOwner && profile?.featuredPlaylist === playlist.id;

  return (
    <Box
      style={{
        background:
          'linear-gradient(180deg, rgba(255, 122, 61, 0.16) 0%, rgba(255, 122, 61, 0.04) 260px, transparent 480px)',
      }}
    >
      <Container size="xl" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
        <Stack gap="xl">
          <PlaylistHeader
            playlist={playlist}
            tracks={tracks}
            isOwner={isOwner}
            featured={featured}
          />
          {tracksPending ? (
            <Center py="xl">
              <Loader size="sm" aria-label="Loading tracks" />
            </Center>
          ) : (
            <PlaylistTracks playlist={playlist} tracks={tracks} isOwner={isOwner} />
          )}
          {tracks.length > 0 ? <PlaylistPanels tracks={tracks} /> : null}
        </Stack>
      </Container>
    </Box>
  );
}
