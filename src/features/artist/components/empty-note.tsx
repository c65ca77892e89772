import { Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconMusicOff } from '@tabler/icons-react';

/** An empty tab ('No tracks yet', 'No albums yet'). */
export function EmptyNote({ title, text }: { title: string; text?: string }) {
  return (
    <Paper withBorder radius="md" p="xl" bg="dark.7">
      <Stack align="center" gap="xs">
        <ThemeIcon variant="light" color="gray" size={48} radius="xl">
          <IconMusicOff size={24} aria-hidden />
        </ThemeIcon>
        <Text fw={600}>{title}</Text>
        {text && (
          <Text size="sm" c="gray.4" ta="center">
            {text}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
