import { Button, Divider, Drawer, Group, Stack, Text } from '@mantine/core';
import { IconLogout, IconSettings, IconUpload, IconUser } from '@tabler/icons-react';
import { ButtonLink } from '@/components/router-links';
import { NavList } from './nav-list';
import type { CurrentUser } from './use-current-user';
import { UserAvatar } from './user-avatar';

export interface MobileMenuProps {
  opened: boolean;
  onClose: () => void;
  user: CurrentUser | null;
  onSignOut: () => void;
}

/** Spec 2: the sidebar's items plus 'Profile & Settings' and 'Log Out'; or Sign Up / Log In. */
export function MobileMenu({ opened, onClose, user, onSignOut }: MobileMenuProps) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title="Menu"
      size="xs"
      closeButtonProps={{ 'aria-label': 'Close menu' }}
    >
      {user ? (
        <Stack gap="md">
          <Group gap="sm" wrap="nowrap">
            <UserAvatar src={user.avatar} name={user.name || user.email} />
            <div style={{ minWidth: 0 }}>
              <Text size="sm" fw={600} truncate>
                {user.name || user.email}
              </Text>
              <Text size="xs" c="gray.4">
                {user.planName ? `${user.planName} plan` : '\u00a0'}
              </Text>
            </div>
          </Group>
          <ButtonLink
            to="/upload"
            leftSection={<IconUpload size={16} aria-hidden />}
            onClick={onClose}
          >
            Upload new track
          </ButtonLink>
          <NavList isAdmin={user.isAdmin} onNavigate={onClose} />
          <Divider />
          <ButtonLink
            to="/profile"
            variant="default"
            leftSection={<IconUser size={16} aria-hidden />}
            onClick={onClose}
          >
            Profile & Settings
          </ButtonLink>
          <ButtonLink
            to="/settings"
            variant="subtle"
            leftSection={<IconSettings size={16} aria-hidden />}
            onClick={onClose}
          >
            Settings
          </ButtonLink>
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconLogout size={16} aria-hidden />}
            onClick={() => {
              onClose();
              onSignOut();
            }}
          >
            Log Out
          </Button>
        </Stack>
      ) : (
        <Stack>
          <ButtonLink to="/signup" onClick={onClose}>
            Sign Up
          </ButtonLink>
          <ButtonLink to="/login" variant="default" onClick={onClose}>
            Log In
          </ButtonLink>
        </Stack>
      )}
    </Drawer>
  );
}
