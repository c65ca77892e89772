import { Anchor, Button, Group, Stack, UnstyledButton } from '@mantine/core';
import { Link } from '@tanstack/react-router';

export interface HeaderNavItem {
  label: string;
  /** An in-page section id ('features') or an app path ('/faq'). */
  target: string;
}

function scrollToSection(id: string) {
  const el = document.getElementById(id);
  if (!el) return;
  el.scrollIntoView({ block: 'start' });
  el.focus({ preventScroll: true });
  history.replaceState(history.state, '', `#${id}`);
}

export function NavItem({ item, onNavigate }: { item: HeaderNavItem; onNavigate?: () => void }) {
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

/**
 * Who the header is for: pages that check the session pass its status; the others are the same
 * for every visitor (prerendered, no auth code loaded) and show Log In and Sign Up Free.
 */
export type HeaderAccount = 'loading' | 'authenticated' | 'unauthenticated';

/**
 * Log In and Sign Up Free; a signed-in user gets 'Open Soundloft' (to /home) instead, and nothing
 * while their session is still being read (no signed-out buttons flashing first).
 */
export function AuthButtons({
  stacked,
  account = 'unauthenticated',
}: {
  stacked?: boolean;
  account?: HeaderAccount;
}) {
  const Wrap = stacked ? Stack : Group;
  if (account === 'loading') return null;
  if (account === 'authenticated') {
    return (
      <Wrap gap="sm">
        <Button component={Link} to="/home">
          Open Soundloft
        </Button>
      </Wrap>
    );
  }
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
