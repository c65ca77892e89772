import { Badge, Button, Group } from '@mantine/core';
import {
  IconCloudCheck,
  IconCloudOff,
  IconCloudUpload,
  IconAlertTriangle,
} from '@tabler/icons-react';
import { retrySync, syncLabel, useSyncStatus } from '@/data';

/** Spec-less but promised by the design: synced / syncing n / offline / n failed, with a retry. */
export function SyncIndicator() {
  const status = useSyncStatus();
  const label = syncLabel(status);
  if (label === 'failed') {
    return (
      <Group gap={4} wrap="nowrap" role="status">
        <Badge
          color="red"
          variant="light"
          leftSection={<IconAlertTriangle size={12} aria-hidden />}
        >
          {status.failed} failed
        </Badge>
        <Button size="compact-xs" variant="subtle" onClick={retrySync}>
          Retry
        </Button>
      </Group>
    );
  }
  const view = {
    synced: { color: 'teal', icon: IconCloudCheck, text: 'Synced' },
    syncing: {
      color: 'yellow',
      icon: IconCloudUpload,
      text: status.pending ? `Syncing ${status.pending}` : 'Syncing',
    },
    offline: { color: 'gray', icon: IconCloudOff, text: 'Offline' },
  }[label];
  const Icon = view.icon;
  return (
    <Badge
      role="status"
      color={view.color}
      variant="light"
      leftSection={<Icon size={12} aria-hidden />}
      title={
        label === 'offline'
          ? 'Changes are kept on this device and sent when you are back online'
          : undefined
      }
    >
      {view.text}
    </Badge>
  );
}
