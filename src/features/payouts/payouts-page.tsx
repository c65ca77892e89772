import { Alert, Button, Container, Grid, Stack, Text, Title } from '@mantine/core';
import { IconCash, IconChartBar, IconHeadphones } from '@tabler/icons-react';
import { useCallback } from 'react';
import { useServerRead } from '@/data/repositories/use-server-read';
import { fetchBalance, fetchEarnings, fetchWithdrawals } from '@/data/remote/payouts-remote';
import { useSessionUserId } from '@/data/auth';
import { StatGrid } from '@/components/stat-grid';
import { centsOf, centsToDecimal, formatEur } from '@/lib/euros';
import { EarningsSection } from './earnings-section';
import { PayoutHistory } from './payout-history';
import { StatementDownload } from './statement-download';
import { TrackEarnings } from './track-earnings';
import { WithdrawalForm } from './withdrawal-form';

/**
 * /payouts (spec 2): balance, total plays, earnings per day / month / track, the withdrawal
 * form (or 'Insufficient Balance'), the payout history and a monthly statement. Everything is
 * read from the server (docs/payouts.md); the layout sends signed-out visitors to /login.
 */
export function PayoutsPage() {
  const userId = useSessionUserId();
  const balance = useServerRead(() => fetchBalance(userId ?? ''), userId);
  const earnings = useServerRead(() => fetchEarnings(30, 12), userId);
  const history = useServerRead(() => fetchWithdrawals(userId ?? ''), userId);
  const { reload: reloadBalance } = balance;
  const { reload: reloadHistory } = history;
  const refresh = useCallback(() => {
    void reloadBalance();
    void reloadHistory();
  }, [reloadBalance, reloadHistory]);

  const balanceCents = centsOf(balance.data ?? 0);
  const failed = balance.error ?? earnings.error ?? history.error;
  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="lg">
        <div>
          <Title order={1}>Payouts</Title>
          <Text c="dimmed">Your earnings from counted plays, and withdrawals of your balance.</Text>
        </div>
        {failed && (
          <Alert color="red" title="Could not load your payouts" role="alert">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{failed.message}</Text>
              <Button
                size="xs"
                variant="light"
                onClick={() => {
                  refresh();
                  void earnings.reload();
                }}
              >
                Try again
              </Button>
            </Stack>
          </Alert>
        )}
        <StatGrid
          columns={3}
          loading={balance.loading || earnings.loading}
          items={[
            {
              label: 'Balance',
              value: formatEur(centsToDecimal(balanceCents)),
              icon: IconCash,
              color: 'green',
            },
            {
              label: 'Total plays',
              value: (earnings.data?.totalPlays ?? 0).toLocaleString('en-GB'),
              icon: IconHeadphones,
              color: 'violet',
            },
            {
              label: 'Total earned',
              value: formatEur(earnings.data?.totalEarned ?? 0),
              icon: IconChartBar,
              color: 'ember',
            },
          ]}
        />
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap="lg">
              <EarningsSection earnings={earnings.data} />
              <TrackEarnings rows={earnings.data?.tracks} />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack gap="lg">
              {balance.data !== undefined && (
                <WithdrawalForm
                  key={balanceCents}
                  balanceCents={balanceCents}
                  onRequested={refresh}
                />
              )}
              <PayoutHistory rows={history.data} />
              <StatementDownload />
            </Stack>
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  );
}
