import { Group, SegmentedControl, Text } from '@mantine/core';
import { setDownloadQuality, useDownloadQuality, useProfile } from '@/data';
import { useCurrentUserId } from './use-current-user-id';

/**
 * The listener's download quality (docs/offline.md): High for every plan with downloads,
 * Lossless on Premium only. Stored on this device; shown in Library > Downloads and /settings.
 */
export function DownloadQualityControl({ labelId }: { labelId: string }) {
  const userId = useCurrentUserId();
  const quality = useDownloadQuality(userId);
  const premium = useProfile(userId)?.subscriptionPlan === 'premium';
  return (
    <Group gap="sm" wrap="wrap">
      <Text size="sm" id={labelId}>
        Download quality
      </Text>
      <SegmentedControl
        size="xs"
        aria-labelledby={labelId}
        value={quality}
        onChange={(value) =>
          userId && void setDownloadQuality(userId, value === 'lossless' ? 'lossless' : 'high')
        }
        data={[
          { value: 'high', label: 'High' },
          { value: 'lossless', label: 'Lossless', disabled: !premium },
        ]}
      />
    </Group>
  );
}
