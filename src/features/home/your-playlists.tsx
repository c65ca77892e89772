import { Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconPlaylist, IconPlus } from '@tabler/icons-react';
import { memo, useMemo } from 'react';
import { AnchorLink, ButtonLink } from '@/components/router-links';
import { usePlaylistsOrLoading } from '@/data';
import { PlaylistCard } from '@/features/catalogue/playlist-card';
import { CoverShelf, CoverShelfSkeleton } from './cover-shelf';
import { SectionHeader } from './section-header';

/** Spec 9: playlists shown 5. */
export const PLAYLISTS_SHOWN = 5;

/** Your Playlists: the first 5; See All to the library; empty: create one there. */
export const YourPlaylists = memo(function YourPlaylists({ userId }: { userId: string | null }) {
  // Undefined until the mirror's first full pull has answered: skeletons, not 'No playlists yet.'.
  const playlists = usePlaylistsOrLoading(userId);
  const shown = useMemo(() => playlists?.slice(0, PLAYLISTS_SHOWN), [playlists]);
  return (
    <section aria-labelledby="home-playlists">
      <SectionHeader
        id="home-playlists"
        title="Your Playlists"
        action={
          <AnchorLink
            to="/library"
            search={{ tab: 'playlists' }}
            size="sm"
            fw={600}
            c="dimmed"
            underline="hover"
          >
            See All
          </AnchorLink>
        }
      />
      {shown === undefined ? (
        <CoverShelfSkeleton wide={5} />
      ) : shown.length === 0 ? (
        <Paper withBorder radius="md" p="xl" bg="dark.7">
          <Stack align="center" gap="xs">
            <ThemeIcon variant="light" size={48} radius="xl" aria-hidden>
              <IconPlaylist size={24} />
            </ThemeIcon>
            <Text fw={600}>No playlists yet.</Text>
            <Text size="sm" c="dimmed" ta="center">
              Collect the tracks you love for every mood and moment.
            </Text>
            <ButtonLink
              to="/library"
              search={{ create: 'playlist' }}
              variant="light"
              mt="xs"
              leftSection={<IconPlus size={16} aria-hidden />}
            >
              Create playlist
            </ButtonLink>
          </Stack>
        </Paper>
      ) : (
        <CoverShelf
          items={shown}
          wide={5}
          label="Your playlists"
          itemKey={(p) => p.id}
          render={(p) => <PlaylistCard playlist={p} />}
        />
      )}
    </section>
  );
});
