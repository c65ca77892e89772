import { Badge, Group, Stack, Text } from '@mantine/core';
import { SectionCard } from '@/components/section-card';
import type { Track } from '@/data';

/** Spec 6: up to 6 tracks waiting for review. */
export function PendingSpotlight({ tracks }: { tracks: Track[] | undefined }) {
  return (
    <SectionCard
      title="Pending review"
      id="spotlight-title"
      data={tracks}
      skeletonHeight={120}
      empty={(tracks) => (tracks.length === 0 ? 'Nothing waits for review.' : null)}
    >
      {(tracks) => (
        <>
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
        </>
      )}
    </SectionCard>
  );
}
