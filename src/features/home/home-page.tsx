import { Container, Stack, Text, Title } from '@mantine/core';
import { useAuth } from '@/data/auth';

/** Spec 2: greeting with the first name, or 'Music Lover'. The rest of /home comes with the listener screens. */
export function HomePage() {
  const { session } = useAuth();
  const name = (session?.user.user_metadata.name as string | undefined)?.trim() ?? '';
  const firstName = name.split(/\s+/)[0] || 'Music Lover';
  return (
    <Container size="lg" py="xl">
      <Stack gap="xs">
        <Title order={1}>Welcome back, {firstName}</Title>
        <Text c="gray.4">Signed in as {session?.user.email}.</Text>
      </Stack>
    </Container>
  );
}
