import { Box, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { memo } from 'react';
import { AnchorLink, ButtonLink } from '@/components/router-links';
import { Logo } from '@/components/site/logo';
import { NavList } from './nav-list';
import { ResizeHandle } from './resize-handle';
import type { CurrentUser } from './use-current-user';
import { UserCard } from './user-card';

export interface SidebarProps {
  user: CurrentUser | null;
  width: number;
  onResize: (width: number) => void;
  onSignOut: () => void;
}

/** The desktop sidebar (spec 2): welcome line, upload button, navigation, the user's card. */
export const Sidebar = memo(function Sidebar({ user, width, onResize, onSignOut }: SidebarProps) {
  return (
    <Box component="aside" aria-label="Sidebar" className="dashboard-sidebar" w={width}>
      <Stack h="100%" gap={0}>
        <Box px="md" pt="md" pb="sm">
          <AnchorLink to="/home" underline="never" aria-label="Soundloft home">
            <Logo />
          </AnchorLink>
        </Box>
        {user ? (
          <>
            <Box px="md" pb="md">
              <Text size="sm" c="gray.4" truncate>
                {user.welcome},{' '}
                <Text span c="gray.0" fw={600}>
                  {user.name || user.email}
                </Text>
              </Text>
              <ButtonLink
                to="/upload"
                fullWidth
                mt="sm"
                leftSection={<IconUpload size={16} aria-hidden />}
              >
                Upload new track
              </ButtonLink>
            </Box>
            <Box px="xs" style={{ flex: 1, minHeight: 0, overflowY: 'auto' }}>
              <NavList isAdmin={user.isAdmin} />
            </Box>
            <Box p="sm">
              <UserCard user={user} onSignOut={onSignOut} />
            </Box>
          </>
        ) : (
          <Box px="md">
            <ButtonLink to="/login" fullWidth>
              Sign in
            </ButtonLink>
          </Box>
        )}
      </Stack>
      <ResizeHandle width={width} onResize={onResize} />
    </Box>
  );
});
