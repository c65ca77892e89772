import { Badge, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { Track } from '@/data';

/** Spec 6: up to 6 tracks waiting for review. */
export function PendingSpotlight({ tracks }: { tracks: Track[] | undefined }) {
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      bg="dark.7"
      component="section"
      aria-labelledby="spotlight-title"
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="spotlight-title">
          Pending review
        </Title>
        {!tracks ? (
          <Skeleton h={120} aria-label="Loading pending tracks" />
        ) : tracks.length === 0 ? (
          <Text c="dimmed" size="sm">
            Nothing waits for review.
          </Text>
        ) : (
          <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {tracks.map((t) => (
              <Group key={t.id} component="li" justify="space-between" wrap="nowrap" gap="xs">
                <div style={{ minWidth: 0 }}>
                  <Text fw={600} truncate>
                    {t.title}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {t.artist}
                  </Text>
                </div>
                <Badge color="yellow" variant="light" style={{ flexShrink: 0 }}>
                  Pending review
                </Badge>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
