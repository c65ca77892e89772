import { Group, Text } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { useSyncStatusSelector } from '@/data';
import { useOnline } from '@/data/search/use-online';

/** What works offline (docs/offline.md): said once, in the app frame, on every screen. */
export const OFFLINE_MESSAGE =
  "Offline — downloaded tracks and your library are available. Changes are sent when you're back online.";
/** The message after its first word, which is set in bold. */
const OFFLINE_REST = OFFLINE_MESSAGE.slice('Offline'.length);

/**
 * The offline indicator: a strip under the top bar while the device is offline (the browser
 * says so, or the sync engine cannot reach the server). A polite live region that is always in
 * the page (empty while online), so screen readers announce the message when it appears.
 */
export function OfflineBanner() {
  const online = useOnline();
  const unreachable = useSyncStatusSelector((s) => s.phase === 'offline');
  const offline = !online || unreachable;
  return (
    <div role="status" aria-live="polite" className="dashboard-offline" data-offline={offline}>
      {offline ? (
        <Group gap={8} wrap="nowrap" px={{ base: 'sm', sm: 'md' }} py={6}>
          <IconCloudOff size={16} aria-hidden style={{ flex: 'none' }} />
          <Text size="sm">
            <strong>Offline</strong>
            {OFFLINE_REST}
          </Text>
        </Group>
      ) : null}
    </div>
  );
}
