import { Anchor, Avatar, Box, Button, Container, Group, Text } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { logout, useAuth } from '@/data/auth';
import { Logo } from '@/components/site/logo';
import { SyncIndicator } from './sync-indicator';

function initials(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]?.toUpperCase())
      .join('') || '?'
  );
}

/**
 * The signed-in frame: top bar with the user and Sign out. The full dashboard layout (sidebar,
 * search, player) arrives with the listener screens.
 */
export function DashboardFrame({ children }: { children: ReactNode }) {
  const { session } = useAuth();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const user = session?.user;
  const name = (user?.user_metadata.name as string | undefined) || user?.email || '';

  return (
    <>
      <Box
        component="header"
        py="sm"
        style={{ borderBottom: '1px solid var(--mantine-color-dark-5)' }}
      >
        <Container size="lg">
          <Group justify="space-between" wrap="nowrap">
            <Anchor component={Link} to="/home" underline="never" aria-label="Soundloft home">
              <Logo />
            </Anchor>
            <Group gap="sm" wrap="nowrap">
              <SyncIndicator />
              <Avatar radius="xl" size="md" color="ember" aria-hidden>
                {initials(name)}
              </Avatar>
              <Text size="sm" visibleFrom="xs" truncate maw={220}>
                {name}
              </Text>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconLogout size={14} aria-hidden />}
                onClick={() => {
                  setError(null);
                  logout()
                    .then(() => navigate({ to: '/login' }))
                    .catch((err: unknown) =>
                      setError(err instanceof Error ? err.message : 'Failed to logout'),
                    );
                }}
              >
                Sign out
              </Button>
            </Group>
          </Group>
          {error ? (
            <Text c="red.4" size="sm" role="alert">
              {error}
            </Text>
          ) : null}
        </Container>
      </Box>
      <Box component="main" id="main">
        {children}
      </Box>
    </>
  );
}
