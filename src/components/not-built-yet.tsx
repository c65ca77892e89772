import { Container, Stack, Text, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { ButtonLink } from './router-links';

/**
 * An app screen the navigation already lists but this build does not have yet. Says so plainly
 * instead of pretending (the issues that build these screens replace it).
 */
export function NotBuiltYet({ title, what }: { title: string; what: string }) {
  return (
    <Container size="sm" py={64}>
      <Stack align="center" ta="center" gap="md">
        <IconTools size={48} stroke={1.5} aria-hidden color="var(--mantine-color-ember-4)" />
        <Title order={1}>{title}</Title>
        <Text c="gray.3">{what} is not available in this build of Soundloft yet.</Text>
        <ButtonLink to="/home" variant="default">
          Back to Home
        </ButtonLink>
      </Stack>
    </Container>
  );
}
