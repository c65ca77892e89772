import { useNavigate } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { beforeSignOut } from '@/data';
import { logout } from '@/data/auth';

/**
 * Sign out (spec: goes to /login). With writes not yet on the server it asks first
 * (docs/sync.md): signing out keeps them on this device for the next sign-in of the same user.
 */
export function useSignOut() {
  const navigate = useNavigate();
  const [pending, setPending] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  // Stable callbacks: the memoised sidebar and menu take them as props.
  const confirm = useCallback(() => {
    setPending(null);
    setError(null);
    logout()
      .then(() => navigate({ to: '/login' }))
      .catch((err: unknown) => setError(err instanceof Error ? err.message : 'Failed to logout'));
  }, [navigate]);

  const request = useCallback(() => {
    void beforeSignOut()
      .then(({ pending: n, safe }) => (safe ? confirm() : setPending(n)))
      .catch(() => confirm());
  }, [confirm]);

  const cancel = useCallback(() => setPending(null), []);

  return { request, confirm, cancel, pending, error };
}
