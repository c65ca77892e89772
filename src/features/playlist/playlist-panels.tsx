import { Badge, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { IconClock, IconMoodHappy, IconUsers } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { Track } from '@/data';
import { formatRuntime, totalDuration } from '@/lib/format-runtime';
import { formatTime } from '@/lib/format-time';
import { playlistInsights } from './playlist-insights';

function Panel({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Paper p="md" radius="md" bg="dark.7" withBorder component="section" aria-label={title}>
      <Group gap="xs" mb={8}>
        {icon}
        <Text fw={600} size="sm">
          {title}
        </Text>
      </Group>
      {children}
    </Paper>
  );
}

/** Mood (top genres), artists and listening time, derived from the playlist's tracks. */
export function PlaylistPanels({ tracks }: { tracks: readonly Track[] }) {
  const { topGenres, artistCount, averageDuration } = playlistInsights(tracks);
  const artists = [...new Set(tracks.map((t) => t.artist))].slice(0, 3);
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
      <Panel icon={<IconMoodHappy size={18} aria-hidden />} title="Mood">
        {topGenres.length ? (
          <Group gap={6}>
            {topGenres.map((g) => (
              <Badge key={g} variant="light" color="ember" tt="none">
                {g}
              </Badge>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            A little bit of everything.
          </Text>
        )}
      </Panel>
      <Panel icon={<IconUsers size={18} aria-hidden />} title="Artists">
        <Text size="sm" c="gray.3">
          {artistCount === 1 ? '1 artist' : `${artistCount} artists`}
          {artists.length ? `: ${artists.join(', ')}${artistCount > 3 ? ' and more' : ''}` : ''}
        </Text>
      </Panel>
      <Panel icon={<IconClock size={18} aria-hidden />} title="Listening time">
        <Text size="sm" c="gray.3">
          {formatRuntime(totalDuration(tracks))} in total, about {formatTime(averageDuration)} a
          track.
        </Text>
      </Panel>
    </SimpleGrid>
  );
}
