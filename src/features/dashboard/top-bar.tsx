import { ActionIcon, Box, Group } from '@mantine/core';
import {
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconMenu2,
} from '@tabler/icons-react';
import { memo } from 'react';
import { AnchorLink } from '@/components/router-links';
import { LogoMark } from '@/components/site/logo';
import { SyncIndicator } from './sync-indicator';
import { TopBarSearch } from './top-bar-search';
import type { CurrentUser } from './use-current-user';
import { UserAvatar } from './user-avatar';

export interface TopBarProps {
  user: CurrentUser | null;
  sidebarHidden: boolean;
  onToggleSidebar: () => void;
  onOpenMenu: () => void;
}

/** Spec 2: search, the avatar link to /profile; plus the menu and sidebar toggles. */
export const TopBar = memo(function TopBar({
  user,
  sidebarHidden,
  onToggleSidebar,
  onOpenMenu,
}: TopBarProps) {
  return (
    <Box component="header" className="dashboard-topbar" px={{ base: 'sm', sm: 'md' }} py="xs">
      <Group gap="sm" wrap="nowrap" justify="space-between">
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          hiddenFrom="md"
          aria-label="Open menu"
          onClick={onOpenMenu}
        >
          <IconMenu2 size={20} aria-hidden />
        </ActionIcon>
        <AnchorLink
          to="/home"
          hiddenFrom="md"
          aria-label="Soundloft home"
          style={{ display: 'flex' }}
        >
          <LogoMark size={26} />
        </AnchorLink>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          visibleFrom="md"
          aria-label={sidebarHidden ? 'Show sidebar' : 'Hide sidebar'}
          aria-pressed={!sidebarHidden}
          onClick={onToggleSidebar}
        >
          {sidebarHidden ? (
            <IconLayoutSidebarLeftExpand size={20} aria-hidden />
          ) : (
            <IconLayoutSidebarLeftCollapse size={20} aria-hidden />
          )}
        </ActionIcon>
        <TopBarSearch />
        <Group gap="sm" wrap="nowrap">
          <Box visibleFrom="sm">
            <SyncIndicator />
          </Box>
          {user ? (
            <AnchorLink
              to="/profile"
              aria-label="Your profile"
              style={{ display: 'flex', borderRadius: '50%' }}
            >
              <UserAvatar src={user.avatar} name={user.name || user.email} size={36} />
            </AnchorLink>
          ) : null}
        </Group>
      </Group>
    </Box>
  );
});
