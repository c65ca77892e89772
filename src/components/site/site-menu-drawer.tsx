import { Drawer, Stack } from '@mantine/core';
import { AuthButtons, NavItem, type HeaderAccount, type HeaderNavItem } from './site-nav-items';

/**
 * The public header's menu below 62em. Loaded on first open: a Drawer brings Mantine's
 * ScrollArea, which drags @floating-ui into whatever chunk holds it (docs/architecture.md).
 */
export default function SiteMenuDrawer({
  opened,
  onClose,
  nav,
  account,
}: {
  opened: boolean;
  onClose: () => void;
  nav: HeaderNavItem[];
  account?: HeaderAccount;
}) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="xs"
      title="Menu"
      hiddenFrom="md"
    >
      <Stack component="nav" aria-label="Mobile" gap="lg">
        {nav.map((item) => (
          <NavItem key={item.label} item={item} onNavigate={onClose} />
        ))}
        <AuthButtons stacked account={account} />
      </Stack>
    </Drawer>
  );
}
