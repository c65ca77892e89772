import { NavLink, Stack, Text } from '@mantine/core';
import { useLocation, useNavigate, useRouter } from '@tanstack/react-router';
import type { MouseEvent } from 'react';
import { NAV_GROUPS, isActive, type NavItem } from './nav-items';

/**
 * A plain link the router follows. Not a TanStack <Link>: that marks Library as the current page
 * on /library?tab=liked too (its match ignores which tab), and Liked Songs is.
 */
function NavItemLink({
  item,
  active,
  onNavigate,
}: {
  item: NavItem;
  active: boolean;
  onNavigate?: () => void;
}) {
  const router = useRouter();
  const navigate = useNavigate();
  const search = item.search ?? {};
  const Icon = item.icon;
  const follow = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void navigate({ to: item.to, search });
    onNavigate?.();
  };
  return (
    <NavLink
      component="a"
      href={router.buildLocation({ to: item.to, search }).href}
      onClick={follow}
      label={item.label}
      active={active}
      aria-current={active ? 'page' : undefined}
      color="ember"
      variant="light"
      leftSection={<Icon size={18} stroke={1.8} aria-hidden />}
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    />
  );
}

export interface NavListProps {
  isAdmin: boolean;
  /** Called after a link is followed (the mobile menu closes). */
  onNavigate?: () => void;
}

/** The dashboard's navigation groups, shared by the sidebar and the mobile menu. */
export function NavList({ isAdmin, onNavigate }: NavListProps) {
  const location = useLocation();
  const tab = (location.search as { tab?: string }).tab;
  return (
    <Stack component="nav" aria-label="Main" gap="md">
      {NAV_GROUPS.filter((g) => !g.adminOnly || isAdmin).map((group) => (
        <div key={group.label}>
          <Text
            size="xs"
            fw={700}
            c="gray.5"
            tt="uppercase"
            px="sm"
            mb={4}
            style={{ letterSpacing: '0.06em' }}
          >
            {group.label}
          </Text>
          {group.items.map((item) => (
            <NavItemLink
              key={item.label}
              item={item}
              active={isActive(item, location.pathname, tab)}
              onNavigate={onNavigate}
            />
          ))}
        </div>
      ))}
    </Stack>
  );
}
