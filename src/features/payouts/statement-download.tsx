import { Button, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { fetchStatement } from '@/data/remote/payouts-remote';
import { toast } from '@/components/toast';
import { recentMonths, statementFileName, statementCsv } from './statement-csv';

const monthName = (m: string) =>
  new Date(`${m}-01T00:00:00Z`).toLocaleDateString('en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** A month's earnings statement as a CSV file, for the artist's own records. */
export function StatementDownload() {
  const months = useMemo(() => recentMonths(new Date(), 12), []);
  const [month, setMonth] = useState(months[0] ?? '');
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      const csv = statementCsv(await fetchStatement(month));
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = statementFileName(month);
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : 'Failed to load the statement');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      bg="dark.7"
      component="section"
      aria-labelledby="statement-title"
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="statement-title">
          Earnings statement
        </Title>
        <Text size="sm" c="dimmed">
          Every play, withdrawal and returned withdrawal of a month, as a CSV file.
        </Text>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <NativeSelect
            label="Month"
            value={month}
            onChange={(e) => setMonth(e.currentTarget.value)}
            data={months.map((m) => ({ value: m, label: monthName(m) }))}
          />
          <Button
            variant="light"
            loading={busy}
            leftSection={<IconDownload size={18} />}
            onClick={() => void download()}
          >
            Download CSV
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
