import { Group, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { memo } from 'react';
import { useFriendsActivity } from '@/data/repositories/use-friends-activity';
import { ActivityItem } from './activity-item';
import { SectionHeader } from './section-header';

/** Friends Activity: what the people you follow listened to, newest first (spec 2, 9: 10). */
export const FriendsActivity = memo(function FriendsActivity({
  userId,
}: {
  userId: string | null;
}) {
  const { loading, items } = useFriendsActivity(userId);
  return (
    <section aria-labelledby="home-friends">
      <SectionHeader id="home-friends" title="Friends Activity" />
      <Paper withBorder radius="md" p={{ base: 4, sm: 'xs' }} bg="dark.7">
        {loading ? (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing={0} aria-hidden>
            {Array.from({ length: 4 }, (_, i) => (
              <Group key={i} gap="sm" p="xs" wrap="nowrap">
                <Skeleton circle h={40} w={40} />
                <Stack gap={6} style={{ flex: 1 }}>
                  <Skeleton h={10} w="40%" />
                  <Skeleton h={10} w="70%" />
                </Stack>
              </Group>
            ))}
          </SimpleGrid>
        ) : items.length === 0 ? (
          <Stack align="center" gap={6} py="xl" px="md">
            <ThemeIcon variant="light" color="gray" size={48} radius="xl" aria-hidden>
              <IconUsers size={24} />
            </ThemeIcon>
            <Text fw={600}>No activity yet</Text>
            <Text size="sm" c="dimmed" ta="center">
              Follow some friends to see their listening activity here.
            </Text>
          </Stack>
        ) : (
          <SimpleGrid
            cols={{ base: 1, md: 2 }}
            spacing={0}
            verticalSpacing={0}
            component="ul"
            aria-label="Friends activity"
            style={{ listStyle: 'none', margin: 0, padding: 0 }}
          >
            {items.map((item) => (
              <li key={item.id}>
                <ActivityItem item={item} list={items} />
              </li>
            ))}
          </SimpleGrid>
        )}
      </Paper>
    </section>
  );
});
