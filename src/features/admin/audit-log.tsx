import { Code, Pagination, Table } from '@mantine/core';
import { SectionCard } from '@/components/section-card';
import type { AuditEntry, Page } from '@/data/remote/admin-remote';
import { keyboardScrollable } from '@/lib/scroll-region';

export const AUDIT_PAGE_SIZE = 20;

const ACTION_LABELS: Record<string, string> = {
  'track.approve': 'Approved a track',
  'track.mark_pending': 'Marked a track for review',
  'track.delete': 'Deleted a track',
  'track.take_down': 'Took a track down',
  'report.dismiss': 'Dismissed a report',
  'withdrawal.complete': 'Completed a withdrawal',
  'withdrawal.reject': 'Rejected a withdrawal',
  // The moderation ladder and appeals (docs/trust-and-safety.md).
  'account.warning': 'Warned an account',
  'account.suspension': 'Suspended an account',
  'account.ban': 'Banned an account',
  'account.lift_warning': 'Lifted a warning',
  'account.lift_suspension': 'Lifted a suspension',
  'account.lift_ban': 'Lifted a ban',
  'report.sanction': 'Sanctioned from a report',
  'appeal.file': 'Appeal filed (by the user)',
  'appeal.uphold': 'Upheld an appeal',
  'appeal.overturn': 'Overturned an appeal',
  'track.restore': 'Restored a track',
};

/** A short text of the before / after of an entry (the whole row is kept in the database). */
function summary(value: unknown): string {
  if (!value || typeof value !== 'object') return '—';
  const v = value as Record<string, unknown>;
  const keys = 'title' in v ? ['title', 'artist', 'verified'] : Object.keys(v);
  return keys.map((k) => `${k}: ${JSON.stringify(v[k])}`).join(', ');
}

export interface AuditLogProps {
  page: Page<AuditEntry> | undefined;
  pageIndex: number;
  onPage(index: number): void;
}

/** Every admin action: who, what, when, before and after (newest first, 20 a page). */
export function AuditLog({ page, pageIndex, onPage }: AuditLogProps) {
  const pages = page ? Math.max(1, Math.ceil(page.total / AUDIT_PAGE_SIZE)) : 1;
  return (
    <SectionCard
      title="Audit log"
      id="audit-title"
      data={page}
      skeletonHeight={120}
      empty={(page) => (page.rows.length === 0 ? 'No admin actions yet.' : null)}
      footer={
        page &&
        page.total > AUDIT_PAGE_SIZE && (
          <Pagination
            total={pages}
            value={pageIndex + 1}
            onChange={(p) => onPage(p - 1)}
            size="sm"
            aria-label="Audit log pages"
          />
        )
      }
    >
      {(page) => (
        <>
          <Table.ScrollContainer
            minWidth={720}
            scrollAreaProps={keyboardScrollable('Audit log table')}
          >
            <Table verticalSpacing="xs" aria-label="Audit log" fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Who</Table.Th>
                  <Table.Th>What</Table.Th>
                  <Table.Th>Before</Table.Th>
                  <Table.Th>After</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {page.rows.map((e) => (
                  <Table.Tr key={e.id} data-testid="audit-entry">
                    <Table.Td>{new Date(e.createdAt).toLocaleString('en-GB')}</Table.Td>
                    <Table.Td>{e.actorName ?? 'Service'}</Table.Td>
                    <Table.Td>
                      {ACTION_LABELS[e.action] ?? e.action} <Code>{e.targetId.slice(0, 8)}</Code>
                    </Table.Td>
                    <Table.Td>{summary(e.before)}</Table.Td>
                    <Table.Td>{summary(e.after)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </SectionCard>
  );
}
