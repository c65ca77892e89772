import { Button, Center, Code, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

interface CrashFallbackProps {
  error: unknown;
  onReset: () => void;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  return 'Unknown error';
}

/** The spec's crash screen: 'Something went wrong', the error message, and 'Try again'. */
export function CrashFallback({ error, onReset }: CrashFallbackProps) {
  return (
    <Center component="main" mih="100dvh" p="md">
      <Stack align="center" gap="md" maw={560} role="alert">
        <IconAlertTriangle size={48} color="var(--mantine-color-ember-5)" aria-hidden />
        <Title order={1} ta="center">
          Something went wrong
        </Title>
        <Code block w="100%" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {errorMessage(error)}
        </Code>
        <Text c="dimmed" ta="center" size="sm">
          Your music and library are safe. Try again, and if it keeps happening reload the page.
        </Text>
        <Button onClick={onReset} size="md">
          Try again
        </Button>
      </Stack>
    </Center>
  );
}
