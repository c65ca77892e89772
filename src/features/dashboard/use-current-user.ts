import { useAuth } from '@/data/auth';
import { useProfile } from '@/data';
import { PLANS } from '@/lib/plans';

export interface CurrentUser {
  id: string;
  name: string;
  email: string;
  avatar: string | null;
  planName: string;
  isAdmin: boolean;
}

/** Who is signed in, as the layout shows them: the profile when mirrored, else the session. */
export function useCurrentUser(): CurrentUser | null {
  const { session } = useAuth();
  const user = session?.user;
  const profile = useProfile(user?.id);
  if (!user) return null;
  const metaName = (user.user_metadata.name as string | undefined)?.trim();
  const plan = profile?.subscriptionPlan ?? 'free';
  return {
    id: user.id,
    name: profile?.name?.trim() || metaName || '',
    email: user.email ?? '',
    avatar: profile?.avatar ?? null,
    planName: PLANS.find((p) => p.id === plan)?.name ?? 'Free',
    isAdmin: user.app_metadata.role === 'admin',
  };
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
