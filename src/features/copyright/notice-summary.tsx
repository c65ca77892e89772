/** A notice's facts and deadlines, shared by the uploader's and the admin's pages. */
import { List, Stack, Table, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { NoticeDetail } from './copyright-remote';

const when = new Intl.DateTimeFormat('en', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});
const at = (value: string | null) => (value ? `${when.format(new Date(value))} UTC` : '—');

export const STATUS_LABEL: Record<string, string> = {
  received: 'Received',
  acknowledged: 'Acknowledged',
  removed: 'Removed',
  counter_noticed: 'Counter-notice received',
  restored: 'Restored',
  legal_action: 'Legal action',
  rejected: 'Rejected',
};

export function NoticeSummary({ detail }: { detail: NoticeDetail }) {
  const n = detail.notice;
  const rows: [string, string][] = [
    ['Status', STATUS_LABEL[n.status] ?? n.status],
    ['Received', at(n.received_at)],
    ['Acknowledgement due', at(n.acknowledge_due)],
    ['Acknowledged', at(n.acknowledged_at)],
    ['Removal due', at(n.removal_due)],
    ['Removed', at(n.removed_at)],
    ['Counter-notice', at(n.counter_at)],
    ['Restoration due', at(n.restore_due)],
    [
      'Legal action',
      n.legal_action_at && n.legal_action_by
        ? `${at(n.legal_action_at)} (recorded by the ${n.legal_action_by})`
        : at(n.legal_action_at),
    ],
    ['Restored', at(n.restored_at)],
    ['Rejected', at(n.rejected_at)],
  ];
  return (
    <Stack gap="sm">
      <Text>
        <strong>Claimant:</strong> {n.claimant_name}
      </Text>
      <div>
        <Text fw={600}>The work claimed</Text>
        <Text style={{ whiteSpace: 'pre-wrap' }}>{n.work_description}</Text>
      </div>
      <div>
        <Text fw={600}>Tracks</Text>
        <List>
          {detail.tracks.map((t) => (
            <List.Item key={t.id}>
              <Link to="/track/$trackId" params={{ trackId: t.id }}>
                {t.title}
              </Link>{' '}
              by {t.artist}
            </List.Item>
          ))}
        </List>
      </div>
      {n.decision_reason ? (
        <Text>
          <strong>Reason:</strong> {n.decision_reason}
        </Text>
      ) : null}
      <Table.ScrollContainer minWidth={280}>
        <Table aria-label="Deadlines and steps" striped>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th scope="row">{label}</Table.Th>
                <Table.Td data-testid={`notice-${label.toLowerCase().replace(/\W+/g, '-')}`}>
                  {value}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
