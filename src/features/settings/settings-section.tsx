import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One titled part of /settings (an h2 that names the region; `id` is the in-page anchor). */
export function SettingsSection(props: {
  id: string;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const headingId = `${props.id}-heading`;
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'lg' }}
      bg="dark.7"
      component="section"
      id={props.id}
      aria-labelledby={headingId}
      style={{ scrollMarginTop: 80 }}
    >
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" id={headingId}>
            {props.title}
          </Title>
          {props.description ? (
            <Text size="sm" c="dimmed">
              {props.description}
            </Text>
          ) : null}
        </div>
        {props.children}
      </Stack>
    </Paper>
  );
}
