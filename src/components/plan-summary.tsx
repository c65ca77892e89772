import { Group, List, Stack, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { PlanDefinition } from '@/lib/plans';

/**
 * The body of a plan card (landing pricing, /subscription): '4.99 EUR / month', the description
 * and the first `features` features (all by default).
 */
export function PlanSummary({ plan, features }: { plan: PlanDefinition; features?: number }) {
  return (
    <Stack gap="md" style={{ flex: 1 }}>
      <Group gap={6} align="baseline">
        <Text fz={36} fw={800} lh={1}>
          {plan.priceEur === '0.00' ? '0' : plan.priceEur} EUR
        </Text>
        <Text c="dimmed" size="sm">
          / month
        </Text>
      </Group>
      <Text size="sm" c="gray.4">
        {plan.description}
      </Text>
      <List
        spacing={6}
        size="sm"
        icon={<IconCheck size={16} color="var(--mantine-color-ember-4)" aria-hidden />}
      >
        {plan.features.slice(0, features).map((f) => (
          <List.Item key={f}>{f}</List.Item>
        ))}
      </List>
    </Stack>
  );
}
