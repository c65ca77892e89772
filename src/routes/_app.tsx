import { Center, Loader } from '@mantine/core';
import { Outlet, createFileRoute, useNavigate } from '@tanstack/react-router';
import { Suspense, useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import { bindDownloadsToAuth, bindRealtime, bindSyncToAuth, useProfile } from '@/data';
import { useAuthStatus, useSessionUserId } from '@/data/auth';
import { adNetworkScriptUrl } from '@/features/ads/ad-network-config';
import { DashboardLayout } from '@/features/dashboard/dashboard-layout';
import { whenIdle } from '@/lib/when-idle';
import { lazyChunk } from '@/lib/lazy-chunk';

// House ads (spec 9): their module loads only for a free plan, once the page is idle (they wait
// for substantial content anyway, checked every second). An ad network's script only when one
// is configured (DECISIONS.md), from a module of its own.
const HouseAds = lazyChunk(() => import('@/features/ads/house-ads'));
const AdNetwork = lazyChunk(() => import('@/features/ads/ad-network'));
const AD_NETWORK_SCRIPT_URL = adNetworkScriptUrl();
// A deletion in its grace period offers to keep the account (docs/privacy-rights.md).
const DeletionPendingNotice = lazyChunk(
  () => import('@/features/settings/deletion-pending-notice'),
);

export const Route = createFileRoute('/_app')({
  component: AppRoutes,
});

/** Spec 2: a loader while authentication is checked; signed-out visitors go to /login. */
function AppRoutes() {
  // Deferred: the whole signed-in frame mounts when the session is known, in interruptible
  // slices rather than one long task (docs/architecture.md, "Render cost").
  const status = useDeferredValue(useAuthStatus());
  const navigate = useNavigate();
  // A second factor still owed (status 'mfa') is finished on /login (docs/account.md).
  const signedOut = status === 'unauthenticated' || status === 'mfa';
  // The local mirror syncs with the server while the signed-in app is open (docs/sync.md).
  useEffect(bindSyncToAuth, []);
  // Realtime makes that sync prompt: changes from the user's other devices, friends' listens.
  useEffect(bindRealtime, []);
  // Offline downloads of the signed-in listener (docs/offline.md).
  useEffect(bindDownloadsToAuth, []);
  useEffect(() => {
    if (signedOut) void navigate({ to: '/login', replace: true });
  }, [signedOut, navigate]);
  if (status !== 'authenticated') {
    return (
      <Center mih="100dvh">
        <Loader aria-label="Checking your session" />
      </Center>
    );
  }
  return (
    <DashboardLayout>
      <Outlet />
      <FreePlanAds />
      <WhenIdle>
        <DeletionPendingNotice />
      </WhenIdle>
    </DashboardLayout>
  );
}

/** Its children once the page is idle (their chunks are not part of the first paint). */
function WhenIdle({ children }: { children: ReactNode }) {
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true)), []);
  return idle ? <Suspense fallback={null}>{children}</Suspense> : null;
}

/** Ads for the free plan only: never for Basic or Premium (the mirrored profile's plan). */
function FreePlanAds() {
  const userId = useSessionUserId();
  const profile = useProfile(userId);
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true)), []);
  if (!profile || !idle) return null;
  const free = profile.subscriptionPlan === 'free';
  return (
    <Suspense fallback={null}>
      {free ? <HouseAds /> : null}
      {AD_NETWORK_SCRIPT_URL ? <AdNetwork scriptUrl={AD_NETWORK_SCRIPT_URL} free={free} /> : null}
    </Suspense>
  );
}
