import { Paper, SimpleGrid, Text } from '@mantine/core';

export interface ProfileStatsProps {
  uploads: number;
  playlists: number | null;
  followers: number | null;
  following: number | null;
}

const show = (n: number | null) => (n === null ? '–' : new Intl.NumberFormat('en-US').format(n));

/** Uploads, playlists, followers and following counts ('–' when the server did not answer). */
export function ProfileStats({ uploads, playlists, followers, following }: ProfileStatsProps) {
  const items = [
    { label: 'Uploads', value: show(uploads) },
    { label: 'Playlists', value: show(playlists) },
    { label: 'Followers', value: show(followers) },
    { label: 'Following', value: show(following) },
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" role="list" aria-label="Profile stats">
      {items.map((item) => (
        <Paper
          key={item.label}
          role="listitem"
          withBorder
          radius="md"
          p="md"
          bg="dark.7"
          aria-label={`${item.label}: ${item.value}`}
          data-testid={`stat-${item.label.toLowerCase()}`}
        >
          <Text fz={26} fw={700} style={{ fontVariantNumeric: 'tabular-nums' }} aria-hidden>
            {item.value}
          </Text>
          <Text size="xs" c="gray.4" tt="uppercase" fw={600} lts="0.06em" aria-hidden>
            {item.label}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
