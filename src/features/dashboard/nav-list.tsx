import { NavLink, Stack, Text } from '@mantine/core';
import { createLink, useLocation } from '@tanstack/react-router';
import { forwardRef, type AnchorHTMLAttributes } from 'react';
import type { NavLinkProps } from '@mantine/core';
import { NAV_GROUPS, isActive } from './nav-items';

const NavLinkBase = forwardRef<
  HTMLAnchorElement,
  NavLinkProps & AnchorHTMLAttributes<HTMLAnchorElement>
>((props, ref) => <NavLink component="a" ref={ref} {...props} />);
NavLinkBase.displayName = 'NavLinkBase';
const RouterNavLink = createLink(NavLinkBase);

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
          {group.items.map((item) => {
            const active = isActive(item, location.pathname, tab);
            const Icon = item.icon;
            return (
              <RouterNavLink
                key={item.label}
                to={item.to}
                search={item.search ?? {}}
                label={item.label}
                active={active}
                aria-current={active ? 'page' : undefined}
                color="ember"
                variant="light"
                leftSection={<Icon size={18} stroke={1.8} aria-hidden />}
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
                onClick={onNavigate}
              />
            );
          })}
        </div>
      ))}
    </Stack>
  );
}
