import { Grid, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { AnchorLink } from '@/components/router-links';
import type { Track } from '@/data';
import { albumLabel, CoverArt } from '@/features/catalogue';
import { formatCount, formatReleaseDate, formatRuntime, type ArtistStats } from '../artist-stats';

export interface ArtistAboutProps {
  bio: string;
  latest: Track | null;
  stats: ArtistStats;
  albumCount: number;
  followers: number | null;
}

/** Spec 2: the About tab (only with a bio): bio, latest release, quick stats. */
export function ArtistAbout({ bio, latest, stats, albumCount, followers }: ArtistAboutProps) {
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Paper withBorder radius="md" p="lg" bg="dark.7">
          <Title order={3} fz="lg" mb="sm">
            Biography
          </Title>
          <Text c="gray.3" style={{ whiteSpace: 'pre-line', lineHeight: 1.7 }}>
            {bio}
          </Text>
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Stack gap="lg">
          {latest && (
            <Paper withBorder radius="md" p="lg" bg="dark.7">
              <Title order={3} fz="lg" mb="sm">
                Latest release
              </Title>
              <Group gap="md" wrap="nowrap">
                <CoverArt src={latest.coverImage} seed={latest.id} size={56} />
                <div style={{ minWidth: 0 }}>
                  <AnchorLink
                    to="/track/$trackId"
                    params={{ trackId: latest.id }}
                    fw={600}
                    c="gray.0"
                    truncate
                    display="block"
                  >
                    {latest.title}
                  </AnchorLink>
                  <Text size="sm" c="gray.4" truncate>
                    {albumLabel(latest.album)} · {formatReleaseDate(latest.createdAt)}
                  </Text>
                </div>
              </Group>
            </Paper>
          )}
          <Paper withBorder radius="md" p="lg" bg="dark.7">
            <Title order={3} fz="lg" mb="sm">
              Quick stats
            </Title>
            <List spacing={6} c="gray.3" size="sm">
              <List.Item>
                {stats.trackCount === 1 ? '1 track' : `${stats.trackCount} tracks`}
              </List.Item>
              <List.Item>{albumCount === 1 ? '1 release' : `${albumCount} releases`}</List.Item>
              <List.Item>{formatCount(stats.totalPlays)} plays</List.Item>
              <List.Item>{formatRuntime(stats.runtime)} of music</List.Item>
              {followers !== null && (
                <List.Item>
                  {formatCount(followers)} {followers === 1 ? 'follower' : 'followers'}
                </List.Item>
              )}
            </List>
          </Paper>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
