import {
  Paper,
  SegmentedControl,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { Suspense, useState } from 'react';
import type { Earnings } from '@/data/remote/payouts-remote';
import { PAYOUT } from '@/lib/constants';
import { formatEur } from '@/lib/euros';
import { lazyChunk } from '@/lib/lazy-chunk';

const EarningsChart = lazyChunk(() => import('./earnings-chart'));

type Range = 'days' | 'months';

const dayTick = (label: string) =>
  new Date(`${label}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
const monthTick = (label: string) =>
  new Date(`${label}-01T00:00:00Z`).toLocaleDateString('en-GB', {
    month: 'short',
    year: '2-digit',
    timeZone: 'UTC',
  });

/** Earnings per day (last 30) or per month (last 12): a chart, and the same figures as a table. */
export function EarningsSection({ earnings }: { earnings: Earnings | undefined }) {
  const [range, setRange] = useState<Range>('days');
  const points = range === 'days' ? earnings?.daily : earnings?.monthly;
  const tick = range === 'days' ? dayTick : monthTick;
  const caption =
    range === 'days' ? 'Earnings per day, last 30 days' : 'Earnings per month, last 12 months';
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      bg="dark.7"
      component="section"
      aria-labelledby="earnings-title"
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4" id="earnings-title">
            Earnings
          </Title>
          <SegmentedControl
            size="xs"
            value={range}
            onChange={(v) => setRange(v as Range)}
            data={[
              { value: 'days', label: 'Last 30 days' },
              { value: 'months', label: 'Last 12 months' },
            ]}
            aria-label="Earnings period"
          />
        </Group>
        {points ? (
          <>
            <Suspense fallback={<Skeleton h={240} aria-hidden />}>
              <EarningsChart points={points} tick={tick} />
            </Suspense>
            <VisuallyHidden>
              <Table>
                <caption>{caption}</caption>
                <thead>
                  <tr>
                    <th scope="col">{range === 'days' ? 'Day' : 'Month'}</th>
                    <th scope="col">Plays</th>
                    <th scope="col">Earned</th>
                  </tr>
                </thead>
                <tbody>
                  {points.map((p) => (
                    <tr key={p.label}>
                      <th scope="row">{tick(p.label)}</th>
                      <td>{p.plays}</td>
                      <td>{formatEur(p.amount)}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </VisuallyHidden>
          </>
        ) : (
          <Skeleton h={240} role="status" aria-label="Loading earnings" />
        )}
        <Text size="xs" c="dimmed">
          {PAYOUT.ratePer1000PlaysEur} EUR per 1,000 counted plays, 100% to artists. Days in UTC.
        </Text>
      </Stack>
    </Paper>
  );
}
