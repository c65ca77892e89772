import { useMemo } from 'react';
import { useSessionUser } from '@/data/auth';
import { useProfile } from '@/data';
import { planNameOf } from '@/lib/plans';
import { welcomeFor, type Welcome } from '@/lib/welcome';

export interface CurrentUser {
  id: string;
  name: string;
  email: string;
  avatar: string | null;
  /** Null until the profile is read: a premium listener never sees 'Free plan' flash first. */
  planName: string | null;
  isAdmin: boolean;
  /** 'Welcome' for a brand-new account, else 'Welcome back'. */
  welcome: Welcome;
}

/**
 * Who is signed in, as the layout shows them: the profile when mirrored, else the session. The
 * same object while nothing it shows changes, so the sidebar and top bar skip re-rendering.
 */
export function useCurrentUser(): CurrentUser | null {
  const user = useSessionUser();
  const profile = useProfile(user?.id);
  const metaName = (user?.user_metadata.name as string | undefined)?.trim();
  const name = profile?.name?.trim() || metaName || '';
  const email = user?.email ?? '';
  const avatar = profile?.avatar ?? null;
  const plan = profile?.subscriptionPlan;
  const planName = plan ? planNameOf(plan) : null;
  const isAdmin = user?.app_metadata.role === 'admin';
  const id = user?.id ?? null;
  const welcome = welcomeFor(user?.created_at);
  return useMemo(
    () => (id ? { id, name, email, avatar, planName, isAdmin, welcome } : null),
    [id, name, email, avatar, planName, isAdmin, welcome],
  );
}

export function initials(nameOrEmail: string): string {
  return (
    nameOrEmail
      .split(/[\s@._-]+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]?.toUpperCase())
      .join('') || '?'
  );
}
