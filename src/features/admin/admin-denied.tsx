import { Container, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { ButtonLink } from '@/components/router-links';

/** Spec 2: what a non-admin sees at /admin (the server refuses their admin reads anyway). */
export function AdminDenied() {
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md" ta="center">
        <ThemeIcon size={64} radius="xl" variant="light" color="red" aria-hidden>
          <IconLock size={32} />
        </ThemeIcon>
        <Title order={1} size="h2">
          Administrator Access Required
        </Title>
        <Text c="dimmed">This page is only available to Soundloft administrators.</Text>
        <ButtonLink to="/home">Return to Home</ButtonLink>
      </Stack>
    </Container>
  );
}
