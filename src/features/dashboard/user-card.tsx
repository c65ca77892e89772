import { Button, Group, Stack, Text } from '@mantine/core';
import { IconLogout, IconSettings, IconUser } from '@tabler/icons-react';
import { ButtonLink } from '@/components/router-links';
import type { CurrentUser } from './use-current-user';
import { UserAvatar } from './user-avatar';

/** Sidebar foot: avatar, name and plan, Profile and Settings links, Sign out below them. */
export function UserCard({ user, onSignOut }: { user: CurrentUser; onSignOut: () => void }) {
  const display = user.name || user.email;
  return (
    <Stack gap="xs" p="sm" bg="dark.6" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
      <Group gap="sm" wrap="nowrap">
        <UserAvatar src={user.avatar} name={display} />
        <div style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} truncate>
            {display}
          </Text>
          <Text size="xs" c="gray.4">
            {user.planName ? `${user.planName} plan` : '\u00a0'}
          </Text>
        </div>
      </Group>
      <Group gap="xs" grow>
        <ButtonLink
          to="/profile"
          size="xs"
          variant="default"
          leftSection={<IconUser size={14} aria-hidden />}
        >
          Profile
        </ButtonLink>
        <ButtonLink
          to="/settings"
          size="xs"
          variant="default"
          leftSection={<IconSettings size={14} aria-hidden />}
        >
          Settings
        </ButtonLink>
      </Group>
      {/* Its own row: three buttons in the sidebar's width cut their words ("Profi", "Setti"). */}
      <Button
        size="xs"
        variant="subtle"
        color="gray"
        fullWidth
        leftSection={<IconLogout size={14} aria-hidden />}
        onClick={onSignOut}
      >
        Sign out
      </Button>
    </Stack>
  );
}
