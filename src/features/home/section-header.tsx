import { Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A /home section's heading, with an optional 'See All' link on the right. */
export function SectionHeader({
  id,
  title,
  action,
}: {
  id: string;
  title: string;
  action?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="baseline" mb="sm" wrap="nowrap">
      <Title order={2} id={id} fz={{ base: 'h4', sm: 'h3' }}>
        {title}
      </Title>
      {action}
    </Group>
  );
}
