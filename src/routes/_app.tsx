import { Center, Loader } from '@mantine/core';
import { Outlet, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useDeferredValue, useEffect } from 'react';
import { bindRealtime, bindSyncToAuth } from '@/data';
import { useAuthStatus } from '@/data/auth';
import { DashboardLayout } from '@/features/dashboard/dashboard-layout';

export const Route = createFileRoute('/_app')({
  component: AppRoutes,
});

/** Spec 2: a loader while authentication is checked; signed-out visitors go to /login. */
function AppRoutes() {
  // Deferred: the whole signed-in frame mounts when the session is known, in interruptible
  // slices rather than one long task (docs/architecture.md, "Render cost").
  const status = useDeferredValue(useAuthStatus());
  const navigate = useNavigate();
  const signedOut = status === 'unauthenticated';
  // The local mirror syncs with the server while the signed-in app is open (docs/sync.md).
  useEffect(bindSyncToAuth, []);
  // Realtime makes that sync prompt: changes from the user's other devices, friends' listens.
  useEffect(bindRealtime, []);
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
    </DashboardLayout>
  );
}
