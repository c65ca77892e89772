import { Anchor, Box, Center, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Logo } from '@/components/site/logo';

interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}

/** Spec 2: the auth layout has a header with a link back to the landing page. */
export function AuthLayout({ title, subtitle, children }: AuthLayoutProps) {
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box
        component="header"
        py="md"
        style={{ borderBottom: '1px solid var(--mantine-color-dark-5)' }}
      >
        <Container size="lg">
          <Group justify="space-between">
            <Anchor component={Link} to="/" underline="never" aria-label="Soundloft home">
              <Logo />
            </Anchor>
            <Anchor component={Link} to="/" c="gray.3" size="sm">
              <Group gap={4} wrap="nowrap">
                <IconArrowLeft size={16} aria-hidden />
                Back to home
              </Group>
            </Anchor>
          </Group>
        </Container>
      </Box>
      <Center component="main" id="main" style={{ flex: 1 }} p="md">
        <Paper w="100%" maw={440} p={{ base: 'lg', sm: 'xl' }} radius="lg" withBorder bg="dark.6">
          <Stack gap="lg">
            <Stack gap={6}>
              <Title order={1} fz={28}>
                {title}
              </Title>
              {subtitle ? (
                <Text c="gray.4" size="sm">
                  {subtitle}
                </Text>
              ) : null}
            </Stack>
            {children}
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
