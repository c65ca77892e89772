import { Button, Group, Paper, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { registerServiceWorker } from './sw-register';

/** Shown when a new version of the app has been downloaded and waits to take over. */
export function UpdatePrompt() {
  const [applyUpdate, setApplyUpdate] = useState<(() => void) | null>(null);

  useEffect(() => registerServiceWorker((apply) => setApplyUpdate(() => apply)), []);

  if (!applyUpdate) return null;
  return (
    <Paper
      role="status"
      aria-live="polite"
      shadow="lg"
      p="md"
      withBorder
      pos="fixed"
      bottom={16}
      right={16}
      left={16}
      maw={420}
      ml="auto"
      style={{ zIndex: 400 }}
    >
      <Text fw={600}>A new version of Soundloft is ready.</Text>
      <Text size="sm" c="dimmed" mb="sm">
        Reload to get the latest features and fixes.
      </Text>
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={() => setApplyUpdate(null)}>
          Later
        </Button>
        <Button onClick={applyUpdate}>Reload</Button>
      </Group>
    </Paper>
  );
}
