import { Stack, Text } from '@mantine/core';
import { CardLink } from '@/components/router-links';
import type { Playlist } from '@/data';
import { CoverArt } from './cover-art';

export const trackCountLabel = (n: number) => `${n} ${n === 1 ? 'track' : 'tracks'}`;

/**
 * A playlist card: cover, name, track count; goes to /playlist/{id}. Its name is its text ('Night
 * Drive 0 tracks'): an aria-label that reworded it would not contain the visible text (WCAG 2.5.3).
 */
export function PlaylistCard({ playlist }: { playlist: Playlist }) {
  return (
    <CardLink
      to={'/playlist/$id'}
      params={{ id: playlist.id }}
      padding="sm"
      radius="md"
      withBorder
      bg="dark.7"
    >
      <Stack gap="xs">
        <CoverArt
          src={playlist.coverImage}
          seed={playlist.id}
          size="100%"
          kind="playlist"
          radius="md"
        />
        <div>
          <Text fw={600} size="sm" truncate>
            {playlist.name}
          </Text>
          <Text size="xs" c="dimmed">
            {trackCountLabel(playlist.trackIds.length)}
          </Text>
        </div>
      </Stack>
    </CardLink>
  );
}
