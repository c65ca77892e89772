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

/** Log In and Sign Up Free. */
export function AuthButtons({ stacked }: { stacked?: boolean }) {
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
