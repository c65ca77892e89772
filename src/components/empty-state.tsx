import { Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  icon: ReactNode;
  /** The spec's empty-state sentence, verbatim. */
  message: string;
  hint?: string;
  action?: ReactNode;
}

/** A centred empty state: icon, the spec's sentence, a hint and one action. */
export function EmptyState({ icon, message, hint, action }: EmptyStateProps) {
  return (
    <Stack
      align="center"
      gap="sm"
      py={48}
      px="md"
      ta="center"
      style={{
        border: '1px dashed var(--mantine-color-dark-4)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
    >
      <ThemeIcon size={56} radius="xl" variant="light" color="ember" aria-hidden>
        {icon}
      </ThemeIcon>
      <Text fw={600} size="lg">
        {message}
      </Text>
      {hint ? (
        <Text c="dimmed" size="sm" maw={420}>
          {hint}
        </Text>
      ) : null}
      {action}
    </Stack>
  );
}
