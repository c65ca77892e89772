import { Stack, Text } from '@mantine/core';
import { useProfile } from '@/data';
import { DownloadQualityControl, useCurrentUserId } from '@/features/catalogue';
import { PLANS } from '@/lib/plans';
import { AutoplaySwitch, NormaliseSwitch } from '@/player/ui';
import { AnchorLink } from '@/components/router-links';

/**
 * Playback (docs/account.md): the streaming quality the plan gives (the server signs only what
 * the plan allows, docs/upload.md), loudness normalisation and autoplay (saved with the player) and the
 * download quality (Library > Downloads shows the same control).
 */
export function PlaybackSection() {
  const userId = useCurrentUserId();
  const planId = useProfile(userId)?.subscriptionPlan;
  const plan = PLANS.find((p) => p.id === planId);
  return (
    <Stack gap="md">
      <div>
        <Text size="sm" fw={600}>
          Streaming quality
        </Text>
        <Text size="sm" c="dimmed" data-testid="streaming-quality">
          {plan
            ? `${plan.audioQuality.label}: the best your ${plan.name} plan allows.`
            : 'Loading your plan…'}{' '}
          {plan && plan.id !== 'premium' ? (
            <AnchorLink to="/subscription" size="sm">
              Upgrade for better sound
            </AnchorLink>
          ) : null}
        </Text>
      </div>
      <NormaliseSwitch />
      <AutoplaySwitch />
      {plan?.offlineDownloads ? (
        <DownloadQualityControl labelId="settings-download-quality" />
      ) : (
        <Text size="sm" c="dimmed">
          Downloads for offline listening come with Basic and Premium.
        </Text>
      )}
    </Stack>
  );
}
