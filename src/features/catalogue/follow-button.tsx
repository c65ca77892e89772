import { Button, type ButtonProps } from '@mantine/core';
import { IconCheck, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { toast } from '@/components/toast';
import { getRepositories } from '@/data';

export interface FollowButtonProps extends Omit<ButtonProps, 'children' | 'onClick'> {
  /** The profile to follow. */
  userId: string;
  /**
   * Whether the viewer follows them now (useProfileCounts().isFollowing); undefined while that is
   * still being read: a disabled button with a loader, never a 'Follow' that may be wrong.
   */
  following: boolean | undefined;
  /** Who, for the accessible description ('Follow Neon Harbor'). */
  name: string;
}

/** Spec 4: Follow / Following toggle; the mirror changes at once, the sync sends it. */
export function FollowButton({ userId, following, name, ...props }: FollowButtonProps) {
  const [busy, setBusy] = useState(false);
  if (following === undefined) {
    return (
      <Button
        variant="default"
        radius="xl"
        loading
        aria-label={`Checking whether you follow ${name}`}
        leftSection={<IconUserPlus size={16} aria-hidden />}
        {...props}
      >
        Follow
      </Button>
    );
  }
  return (
    <Button
      variant={following ? 'default' : 'filled'}
      color="ember"
      radius="xl"
      aria-pressed={following}
      title={following ? `Unfollow ${name}` : `Follow ${name}`}
      leftSection={
        following ? <IconCheck size={16} aria-hidden /> : <IconUserPlus size={16} aria-hidden />
      }
      disabled={busy}
      {...props}
      onClick={() => {
        setBusy(true);
        getRepositories()
          .follows.toggle(userId)
          .catch((e: unknown) => toast.error(e instanceof Error ? e.message : String(e)))
          .finally(() => setBusy(false));
      }}
    >
      {following ? 'Following' : 'Follow'}
    </Button>
  );
}
