import { Flex, Paper, SimpleGrid, Skeleton, Text, ThemeIcon } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';

export interface StatItem {
  label: string;
  value: string;
  icon: Icon;
  color: string;
}

export interface StatGridProps {
  items: StatItem[];
  loading: boolean;
  /** Columns from md up (2 below). */
  columns?: number;
}

/** A row of stat cards (label, value, icon), each a labelled group for screen readers. */
export function StatGrid({ items, loading, columns = 4 }: StatGridProps) {
  return (
    <SimpleGrid cols={{ base: 2, md: columns }} spacing={{ base: 'sm', sm: 'md' }}>
      {items.map(({ label, value, icon: StatIcon, color }) => (
        <Paper
          key={label}
          withBorder
          radius="md"
          p={{ base: 'sm', sm: 'md' }}
          bg="dark.7"
          role="group"
          aria-label={label}
        >
          <Flex
            gap="sm"
            direction={{ base: 'column', xs: 'row' }}
            align={{ base: 'flex-start', xs: 'center' }}
          >
            <ThemeIcon variant="light" color={color} size={40} radius="md" aria-hidden>
              <StatIcon size={20} />
            </ThemeIcon>
            <div style={{ minWidth: 0 }}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.4} truncate>
                {label}
              </Text>
              {loading ? (
                <Skeleton h={{ base: 22, sm: 24 }} w={48} />
              ) : (
                <Text fz={{ base: 'lg', sm: 'xl' }} fw={750} lh={1.2} data-testid="stat-value">
                  {value}
                </Text>
              )}
            </div>
          </Flex>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
