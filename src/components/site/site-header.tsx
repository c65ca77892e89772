import { Anchor, Box, Burger, Container, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link } from '@tanstack/react-router';
import { Suspense, useState, type ReactNode } from 'react';
import { Logo } from './logo';
import { AuthButtons, NavItem, type HeaderAccount, type HeaderNavItem } from './site-nav-items';
import { lazyChunk } from '@/lib/lazy-chunk';

export type { HeaderAccount, HeaderNavItem } from './site-nav-items';

const loadDrawer = () => import('./site-menu-drawer');
const SiteMenuDrawer = lazyChunk(loadDrawer);
const preloadDrawer = () => void loadDrawer();

const DEFAULT_NAV: HeaderNavItem[] = [
  { label: 'Compare', target: '/comparison' },
  { label: 'FAQ', target: '/faq' },
];

/** Sticky public header: logo, navigation, Log In and Sign Up Free; a drawer below 62em. */
export function SiteHeader({
  nav = DEFAULT_NAV,
  extra,
  account,
}: {
  nav?: HeaderNavItem[];
  extra?: ReactNode;
  /** The session's status, for pages that read it (else the signed-out buttons). */
  account?: HeaderAccount;
}) {
  const [opened, { toggle, close }] = useDisclosure(false);
  // Mounted from the first open on, so closing still animates.
  const [everOpened, setEverOpened] = useState(false);
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
            <AuthButtons account={account} />
          </Group>
          <Burger
            opened={opened}
            onClick={() => {
              setEverOpened(true);
              toggle();
            }}
            onPointerEnter={preloadDrawer}
            onFocus={preloadDrawer}
            hiddenFrom="md"
            aria-label={opened ? 'Close menu' : 'Open menu'}
          />
        </Group>
      </Container>
      {everOpened ? (
        <Suspense fallback={null}>
          <SiteMenuDrawer opened={opened} onClose={close} nav={nav} account={account} />
        </Suspense>
      ) : null}
    </Box>
  );
}
