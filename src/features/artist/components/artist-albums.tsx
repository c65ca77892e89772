import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { CoverArt, TrackList, trackCountLabel } from '@/features/catalogue';
import { formatCount, type AlbumGroup } from '../artist-stats';
import { EmptyNote } from './empty-note';

/** Spec 2: tracks grouped by album name, 'Singles' for tracks without one. */
export function ArtistAlbums({ albums }: { albums: AlbumGroup[] }) {
  if (!albums.length) return <EmptyNote title="No albums yet" />;
  return (
    <Stack gap="lg">
      {albums.map((album) => {
        const cover = album.tracks.find((t) => t.coverImage);
        const year = album.releasedAt ? new Date(album.releasedAt).getFullYear() : null;
        return (
          <Paper key={album.name} withBorder radius="md" p={{ base: 'sm', sm: 'md' }} bg="dark.7">
            <Group gap="md" wrap="nowrap" mb="sm">
              <CoverArt
                src={cover?.coverImage}
                seed={album.name + (album.tracks[0]?.id ?? '')}
                size={72}
                radius="md"
              />
              <div style={{ minWidth: 0 }}>
                <Title order={3} fz="lg" lineClamp={2}>
                  {album.name}
                </Title>
                <Text size="sm" c="gray.4">
                  {[year, trackCountLabel(album.tracks.length), `${formatCount(album.plays)} plays`]
                    .filter(Boolean)
                    .join(' · ')}
                </Text>
              </div>
            </Group>
            <TrackList tracks={album.tracks} label={`${album.name} tracks`} />
          </Paper>
        );
      })}
    </Stack>
  );
}
