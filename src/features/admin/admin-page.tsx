import { Button, Container, Grid, Group, Stack, Text, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCash,
  IconClock,
  IconGavel,
  IconHeadphones,
  IconMicrophone2,
  IconMusic,
  IconRefresh,
} from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useServerRead } from '@/data/repositories/use-server-read';
import {
  fetchAdminStats,
  fetchArtists,
  fetchAuditLog,
  fetchModerationTracks,
  fetchOpenReports,
  fetchPendingTracks,
  fetchPendingWithdrawals,
  fetchRefusedPlays,
} from '@/data/remote/admin-remote';
import { useSessionUser } from '@/data/auth';
import { ButtonLink } from '@/components/router-links';
import { StatGrid } from '@/components/stat-grid';
import { toast } from '@/components/toast';
import { formatEur } from '@/lib/euros';
import { AdminDenied } from './admin-denied';
import { AdminGate } from './admin-gate';
import { ARTIST_PAGE_SIZE, ArtistCards } from './artist-cards';
import { AUDIT_PAGE_SIZE, AuditLog } from './audit-log';
import { MODERATION_PAGE_SIZE, ModerationTable } from './moderation-table';
import { PendingSpotlight } from './pending-spotlight';
import { RefusedPlaysView } from './refused-plays';
import { ReportsQueue } from './reports-queue';
import { WithdrawalsQueue } from './withdrawals-queue';

/**
 * /admin (spec 2, 6; docs/admin.md). The client's admin flag only picks this screen or the
 * refusal; every read and action below is refused by the server to non-admins.
 */
export function AdminPage() {
  const user = useSessionUser();
  if (user?.app_metadata.role !== 'admin') return <AdminDenied />;
  return (
    <AdminGate>
      <AdminDashboard />
    </AdminGate>
  );
}

function AdminDashboard() {
  const [trackPage, setTrackPage] = useState(0);
  const [artistPage, setArtistPage] = useState(0);
  const [auditPage, setAuditPage] = useState(0);
  const stats = useServerRead(fetchAdminStats, 'stats');
  const tracks = useServerRead(
    () => fetchModerationTracks(trackPage * MODERATION_PAGE_SIZE, MODERATION_PAGE_SIZE),
    `tracks:${trackPage}`,
  );
  const pending = useServerRead(() => fetchPendingTracks(6), 'pending');
  const artists = useServerRead(
    () => fetchArtists(artistPage * ARTIST_PAGE_SIZE, ARTIST_PAGE_SIZE),
    `artists:${artistPage}`,
  );
  const withdrawals = useServerRead(fetchPendingWithdrawals, 'withdrawals');
  const reports = useServerRead(fetchOpenReports, 'reports');
  const refused = useServerRead(() => fetchRefusedPlays(10), 'refused');
  const audit = useServerRead(
    () => fetchAuditLog(auditPage * AUDIT_PAGE_SIZE, AUDIT_PAGE_SIZE),
    `audit:${auditPage}`,
  );

  // Spec 8's admin toasts, once per failure.
  useFailureToast(tracks.error ?? pending.error, 'Unable to refresh tracks');
  useFailureToast(artists.error, 'Unable to load artists');
  useFailureToast(refused.error, 'Failed to load refused plays');

  const [refreshing, setRefreshing] = useState(false);
  const afterTrackChange = () => {
    void stats.reload();
    void tracks.reload();
    void pending.reload();
    void artists.reload();
    void audit.reload();
  };
  const afterMoneyChange = () => {
    void stats.reload();
    void withdrawals.reload();
    void audit.reload();
  };
  const afterReport = () => {
    afterTrackChange();
    void reports.reload();
  };
  async function refreshAll() {
    setRefreshing(true);
    await Promise.all(
      [stats, tracks, pending, artists, withdrawals, reports, refused, audit].map((r) =>
        r.reload(),
      ),
    );
    setRefreshing(false);
  }

  const s = stats.data;
  return (
    <Container size="xl" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <div>
            <Title order={1}>Admin dashboard</Title>
            <Text c="dimmed">Moderation, payouts, reports and refused plays.</Text>
          </div>
          <Group gap="xs">
            <ButtonLink to="/admin/moderation" leftSection={<IconGavel size={18} />}>
              Moderation queue
            </ButtonLink>
            <Button
              variant="light"
              leftSection={<IconRefresh size={18} />}
              loading={refreshing}
              onClick={() => void refreshAll()}
            >
              Refresh
            </Button>
          </Group>
        </Group>
        <StatGrid
          columns={3}
          loading={!s}
          items={[
            { label: 'Tracks', value: fmt(s?.tracks), icon: IconMusic, color: 'ember' },
            { label: 'Artists', value: fmt(s?.artists), icon: IconMicrophone2, color: 'violet' },
            {
              label: 'Pending review',
              value: fmt(s?.pendingReview),
              icon: IconClock,
              color: 'yellow',
            },
            { label: 'Plays', value: fmt(s?.plays), icon: IconHeadphones, color: 'blue' },
            {
              label: 'Pending withdrawals',
              value: s
                ? `${fmt(s.pendingWithdrawals)} · ${formatEur(s.pendingWithdrawalsSum)}`
                : '',
              icon: IconCash,
              color: 'green',
            },
            {
              label: 'Open reports',
              value: fmt(s?.openReports),
              icon: IconAlertTriangle,
              color: 'red',
            },
          ]}
        />
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <ModerationTable
              page={tracks.data}
              pageIndex={trackPage}
              onPage={setTrackPage}
              onChanged={afterTrackChange}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <Stack gap="lg">
              <PendingSpotlight tracks={pending.data} />
              <ReportsQueue rows={reports.data} onChanged={afterReport} />
            </Stack>
          </Grid.Col>
        </Grid>
        <WithdrawalsQueue rows={withdrawals.data} onChanged={afterMoneyChange} />
        <RefusedPlaysView data={refused.data} />
        <ArtistCards page={artists.data} pageIndex={artistPage} onPage={setArtistPage} />
        <AuditLog page={audit.data} pageIndex={auditPage} onPage={setAuditPage} />
      </Stack>
    </Container>
  );
}

const fmt = (n: number | undefined) => (n === undefined ? '' : n.toLocaleString('en-GB'));

function useFailureToast(error: Error | null, message: string) {
  const shown = useRef<Error | null>(null);
  useEffect(() => {
    if (error && shown.current !== error) {
      shown.current = error;
      toast.error(message);
    }
  }, [error, message]);
}
