import { Outlet, createFileRoute, useLocation, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useAuthStatus } from '@/data/auth';

/** Pages a signed-in user may still see: the confirmation result and setting a new password. */
const OPEN_TO_SIGNED_IN = new Set(['/verify-email/success', '/reset-password']);

export const Route = createFileRoute('/_auth')({
  component: AuthRoutes,
});

/**
 * Spec 2: logged-in users visiting auth pages are sent to /home (also right after logging in or
 * coming back from Google). One navigation per change of status, from an effect: a <Navigate>
 * rendered on every router update would start a new navigation each time.
 */
function AuthRoutes() {
  const status = useAuthStatus();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const leave = status === 'authenticated' && !OPEN_TO_SIGNED_IN.has(pathname);
  useEffect(() => {
    if (leave) void navigate({ to: '/home', replace: true });
  }, [leave, navigate]);
  return <Outlet />;
}
