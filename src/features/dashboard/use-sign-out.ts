import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
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

  const confirm = () => {
    setPending(null);
    setError(null);
    logout()
      .then(() => navigate({ to: '/login' }))
      .catch((err: unknown) => setError(err instanceof Error ? err.message : 'Failed to logout'));
  };

  const request = () => {
    void beforeSignOut()
      .then(({ pending: n, safe }) => (safe ? confirm() : setPending(n)))
      .catch(() => confirm());
  };

  return { request, confirm, cancel: () => setPending(null), pending, error };
}
