import { Box } from '@mantine/core';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { LazyOverlay } from '@/components/lazy-overlay';
import { toast, Toaster } from '@/components/toast';
import { onSyncRejection, REJECTION_MESSAGES } from '@/data';
import { OfflineBanner } from './offline-banner';
import { PlayerDock } from './player-dock';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';
import { useCurrentUser } from './use-current-user';
import { useSidebarPrefs } from './use-sidebar-prefs';
import { useSignOut } from './use-sign-out';
import './dashboard-layout.css';
import { lazyChunk } from '@/lib/lazy-chunk';
import { whenIdle } from '@/lib/when-idle';

// The menu drawer and the sign-out dialog load when the frame is idle, not with the page, and
// not at first use either: signing out with unsynced changes is an offline moment, and on a first
// visit the service worker may not have precached their chunks yet (src/lib/lazy-chunk.ts).
const loadMobileMenu = () => import('./mobile-menu');
const loadSignOutDialog = () => import('./sign-out-dialog');
const MobileMenu = lazyChunk(() => loadMobileMenu().then((m) => ({ default: m.MobileMenu })));
const SignOutDialog = lazyChunk(() =>
  loadSignOutDialog().then((m) => ({ default: m.SignOutDialog })),
);
const preloadOverlays = () =>
  void Promise.all([loadMobileMenu(), loadSignOutDialog()]).catch(() => undefined);

/**
 * The signed-in app's frame (spec 2): resizable, hideable sidebar on desktop, a menu drawer on
 * mobile, the top bar with search, the page, and the player bar at the bottom.
 */
export function DashboardLayout({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  const [prefs, setPrefs] = useSidebarPrefs();
  const [menuOpen, setMenuOpen] = useState(false);
  const signOut = useSignOut();
  const resizeSidebar = useCallback((width: number) => setPrefs({ width }), [setPrefs]);
  const toggleSidebar = useCallback(
    () => setPrefs({ hidden: !prefs.hidden }),
    [prefs.hidden, setPrefs],
  );
  const openMenu = useCallback(() => setMenuOpen(true), []);
  const closeMenu = useCallback(() => setMenuOpen(false), []);

  useEffect(() => whenIdle(preloadOverlays), []);

  // A write the server refused is told in the spec's words; the row was re-pulled already.
  useEffect(
    () =>
      onSyncRejection((letter) => {
        const message = REJECTION_MESSAGES[letter.op];
        if (message) toast.error(message);
      }),
    [],
  );
  useEffect(() => {
    if (signOut.error) toast.error(signOut.error);
  }, [signOut.error]);

  return (
    <div className="dashboard-shell" data-sidebar={prefs.hidden ? 'hidden' : 'shown'}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      {prefs.hidden ? null : (
        <Sidebar
          user={user}
          width={prefs.width}
          onResize={resizeSidebar}
          onSignOut={signOut.request}
        />
      )}
      <div className="dashboard-column">
        <TopBar
          user={user}
          sidebarHidden={prefs.hidden}
          onToggleSidebar={toggleSidebar}
          onOpenMenu={openMenu}
        />
        <OfflineBanner />
        <Box component="main" id="main" tabIndex={-1} className="dashboard-main">
          {children}
        </Box>
      </div>
      <div className="dashboard-player">{user ? <PlayerDock userId={user.id} /> : null}</div>
      <LazyOverlay opened={menuOpen}>
        <MobileMenu opened={menuOpen} onClose={closeMenu} user={user} onSignOut={signOut.request} />
      </LazyOverlay>
      <LazyOverlay opened={signOut.pending !== null}>
        <SignOutDialog
          pending={signOut.pending}
          onCancel={signOut.cancel}
          onConfirm={signOut.confirm}
        />
      </LazyOverlay>
      <Toaster />
    </div>
  );
}
