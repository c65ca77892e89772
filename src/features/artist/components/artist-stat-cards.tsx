import { Group, Paper, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import { IconClockHour4, IconDisc, IconHeadphones } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { formatCount, formatRuntime, type ArtistStats } from '../artist-stats';
import classes from './artist.module.css';

function StatCard({
  label,
  value,
  icon: Icon,
}: {
  label: string;
  value: string;
  icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} bg="dark.7" h="100%">
      <Group gap="md" wrap="nowrap">
        <ThemeIcon variant="light" color="ember" size={44} radius="md" visibleFrom="sm">
          <Icon size={22} aria-hidden />
        </ThemeIcon>
        <div>
          <Text fz={{ base: 10, sm: 'xs' }} c="gray.4" tt="uppercase" fw={600} lts="0.06em">
            {label}
          </Text>
          <Text fz={{ base: 'md', sm: 24 }} fw={700} className={classes.statValue}>
            {value}
          </Text>
        </div>
      </Group>
    </Paper>
  );
}

/** Spec 2: discography count, total plays, runtime (h, mm). */
export function ArtistStatCards({ stats }: { stats: ArtistStats }) {
  return (
    <SimpleGrid cols={3} spacing={{ base: 'xs', sm: 'md' }} aria-label="Artist stats" role="list">
      <div role="listitem">
        <StatCard
          label="Discography"
          value={`${stats.trackCount} ${stats.trackCount === 1 ? 'track' : 'tracks'}`}
          icon={IconDisc}
        />
      </div>
      <div role="listitem">
        <StatCard label="Total plays" value={formatCount(stats.totalPlays)} icon={IconHeadphones} />
      </div>
      <div role="listitem">
        <StatCard label="Runtime" value={formatRuntime(stats.runtime)} icon={IconClockHour4} />
      </div>
    </SimpleGrid>
  );
}
