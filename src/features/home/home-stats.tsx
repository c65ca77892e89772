import { Skeleton } from '@mantine/core';
import { memo } from 'react';
import {
  useLikeCount,
  useMirrorLoading,
  usePlaylistCount,
  useProfileOrLoading,
  useUploadCount,
} from '@/data';
import { usePaymentsStatus } from '@/data/payments-status';
import { planNameOf } from '@/lib/plans';
import { StatCards } from './stat-cards';
import { UpgradeBanner } from './upgrade-banner';

/**
 * The stat cards, then the upgrade banner for the free plan while the server sells paid plans
 * (a placeholder while either is unknown; none with PAYMENTS=off, docs/production.md).
 */
export const HomeStats = memo(function HomeStats({ userId }: { userId: string | null }) {
  const mirrorLoading = useMirrorLoading();
  const profile = useProfileOrLoading(userId);
  const tracks = useUploadCount(userId);
  const liked = useLikeCount(userId);
  const playlists = usePlaylistCount(userId);
  const payments = usePaymentsStatus();
  const free = profile?.subscriptionPlan === 'free';
  const planUnknown = profile === undefined || (profile === null && mirrorLoading);
  const loading =
    mirrorLoading || tracks === undefined || liked === undefined || playlists === undefined;
  return (
    <>
      <StatCards
        loading={loading}
        tracks={tracks ?? 0}
        liked={liked ?? 0}
        playlists={playlists ?? 0}
        plan={planNameOf(profile?.subscriptionPlan)}
      />
      {free && payments.offersUpgrades ? <UpgradeBanner /> : null}
      {planUnknown || (free && !payments.known) ? (
        // While the plan is unknown the banner's exact place is held (its size changes with the
        // width), hidden and inert, so the sections below do not jump when it appears.
        <Skeleton visible radius="lg" aria-hidden>
          <div inert>
            <UpgradeBanner />
          </div>
        </Skeleton>
      ) : null}
    </>
  );
});
