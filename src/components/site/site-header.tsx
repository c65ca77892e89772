import {
  Anchor,
  Box,
  Burger,
  Button,
  Container,
  Drawer,
  Group,
  Stack,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Logo } from './logo';

export interface HeaderNavItem {
  label: string;
  /** An in-page section id ('features') or an app path ('/faq'). */
  target: string;
}

const DEFAULT_NAV: HeaderNavItem[] = [
  { label: 'Compare', target: '/comparison' },
  { label: 'FAQ', target: '/faq' },
];

function scrollToSection(id: string) {
  const el = document.getElementById(id);
  if (!el) return;
  el.scrollIntoView({ block: 'start' });
  el.focus({ preventScroll: true });
  history.replaceState(history.state, '', `#${id}`);
}

function NavItem({ item, onNavigate }: { item: HeaderNavItem; onNavigate?: () => void }) {
  if (item.target.startsWith('/')) {
    return (
      <Anchor component={Link} to={item.target} c="gray.2" fw={500} onClick={onNavigate}>
        {item.label}
      </Anchor>
    );
  }
  return (
    <UnstyledButton
      c="gray.2"
      fw={500}
      fz="md"
      onClick={() => {
        onNavigate?.();
        scrollToSection(item.target);
      }}
    >
      {item.label}
    </UnstyledButton>
  );
}

/** Log In and Sign Up Free. */
function AuthButtons({ stacked }: { stacked?: boolean }) {
  const Wrap = stacked ? Stack : Group;
  return (
    <Wrap gap="sm">
      <Button component={Link} to="/login" variant="subtle" color="gray">
        Log In
      </Button>
      <Button component={Link} to="/signup">
        Sign Up Free
      </Button>
    </Wrap>
  );
}

/** Sticky public header: logo, navigation, Log In and Sign Up Free; a drawer below 62em. */
export function SiteHeader({
  nav = DEFAULT_NAV,
  extra,
}: {
  nav?: HeaderNavItem[];
  extra?: ReactNode;
}) {
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <Box
      component="header"
      pos="sticky"
      top={0}
      h="var(--sl-header-height)"
      style={{
        zIndex: 100,
        backdropFilter: 'blur(12px)',
        background: 'rgba(13, 13, 18, 0.85)',
        borderBottom: '1px solid var(--mantine-color-dark-5)',
      }}
    >
      <Container size="lg" h="100%">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Anchor component={Link} to="/" underline="never" aria-label="Soundloft home">
            <Logo />
          </Anchor>
          <Group component="nav" aria-label="Main" gap="lg" visibleFrom="md">
            {nav.map((item) => (
              <NavItem key={item.label} item={item} />
            ))}
          </Group>
          <Group gap="sm" visibleFrom="md" wrap="nowrap">
            {extra}
            <AuthButtons />
          </Group>
          <Burger
            opened={opened}
            onClick={toggle}
            hiddenFrom="md"
            aria-label={opened ? 'Close menu' : 'Open menu'}
          />
        </Group>
      </Container>
      <Drawer
        opened={opened}
        onClose={close}
        position="right"
        size="xs"
        title="Menu"
        hiddenFrom="md"
      >
        <Stack component="nav" aria-label="Mobile" gap="lg">
          {nav.map((item) => (
            <NavItem key={item.label} item={item} onNavigate={close} />
          ))}
          <AuthButtons stacked />
        </Stack>
      </Drawer>
    </Box>
  );
}
