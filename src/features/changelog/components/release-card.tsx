import {
  Badge,
  Group,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconBug, IconRocket, IconSparkles, IconTrendingUp } from '@tabler/icons-react';
import type { ChangelogRelease } from '../changelog-types';

const GROUPS = [
  { key: 'features', label: 'New features', icon: IconSparkles },
  { key: 'improvements', label: 'Improvements', icon: IconTrendingUp },
  { key: 'fixes', label: 'Bug fixes', icon: IconBug },
] as const;

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' });

export function ReleaseCard({ release }: { release: ChangelogRelease }) {
  return (
    <Paper
      component="article"
      p={{ base: 'lg', sm: 'xl' }}
      radius="lg"
      withBorder
      bg="dark.6"
      aria-labelledby={`release-${release.version}`}
    >
      <Group gap="md" mb="md" wrap="nowrap" align="flex-start">
        <ThemeIcon size={48} radius="md" color={release.color} variant="light">
          <IconRocket size={26} aria-hidden />
        </ThemeIcon>
        <Stack gap={4}>
          <Group gap="xs">
            {/* Shade 8: white on the default filled shade (6) of violet is 4.4:1, under AA's 4.5. */}
            <Badge color={`${release.color}.8`} variant="filled">
              {release.version}
            </Badge>
            <Text size="sm" c="dimmed" component="time" dateTime={release.date}>
              {dateFormat.format(new Date(release.date))}
            </Text>
          </Group>
          <Title id={`release-${release.version}`} order={2} fz="xl">
            {release.title}
          </Title>
        </Stack>
      </Group>
      <Text c="gray.3" mb="lg">
        {release.description}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {GROUPS.map(({ key, label, icon: GroupIcon }) => (
          <Stack key={key} gap="xs">
            <Group gap={6}>
              <GroupIcon size={18} color="var(--mantine-color-ember-4)" aria-hidden />
              <Title order={3} fz="md">
                {label}
              </Title>
            </Group>
            <List size="sm" spacing={6} c="gray.4">
              {release[key].map((item) => (
                <List.Item key={item}>{item}</List.Item>
              ))}
            </List>
          </Stack>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
