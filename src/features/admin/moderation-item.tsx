import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { QueueItem } from '@/data/remote/moderation-remote';

export type ItemAction =
  | { type: 'dismiss' }
  | { type: 'take_down' }
  | { type: 'sanction'; kind: 'warning' | 'suspension' | 'ban' }
  | { type: 'answer'; decision: 'uphold' | 'overturn' };

const HOUR = 3_600_000;

/** 'Due in 5 h', 'Due 6 December 2026', 'Overdue by 3 h', 'Overdue by 2 days'. */
export function formatDue(dueAt: string, now: number): string {
  const ms = Date.parse(dueAt) - now;
  const span = (d: number) =>
    d < 48 * HOUR
      ? `${Math.max(1, Math.round(d / HOUR))} h`
      : `${Math.round(d / (24 * HOUR))} days`;
  if (ms < 0) return `Overdue by ${span(-ms)}`;
  if (ms < 48 * HOUR) return `Due in ${span(ms)}`;
  return `Due ${new Date(dueAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}`;
}

interface ActionButton {
  label: string;
  action: ItemAction;
  variant: 'default' | 'light' | 'filled';
  color?: string;
  disabled?: boolean;
}

/** A report: dismiss, take down, or a step of the ladder; an appeal: uphold or overturn. */
function actionsOf(item: QueueItem): ActionButton[] {
  const noUser = !item.subject.id;
  if (item.kind === 'notice') return [];
  if (item.kind === 'appeal') {
    return [
      { label: 'Uphold', action: { type: 'answer', decision: 'uphold' }, variant: 'default' },
      {
        label: 'Overturn',
        action: { type: 'answer', decision: 'overturn' },
        variant: 'light',
        color: 'green',
      },
    ];
  }
  return [
    { label: 'Dismiss', action: { type: 'dismiss' }, variant: 'default' },
    {
      label: 'Take down',
      action: { type: 'take_down' },
      variant: 'light',
      color: 'orange',
      disabled: !item.trackId,
    },
    {
      label: 'Warn',
      action: { type: 'sanction', kind: 'warning' },
      variant: 'light',
      color: 'yellow',
      disabled: noUser,
    },
    {
      label: 'Suspend',
      action: { type: 'sanction', kind: 'suspension' },
      variant: 'light',
      color: 'red',
      disabled: noUser,
    },
    {
      label: 'Ban',
      action: { type: 'sanction', kind: 'ban' },
      variant: 'filled',
      color: 'red',
      disabled: noUser,
    },
  ];
}

const KIND_LABEL = { report: 'Report', notice: 'Copyright notice', appeal: 'Appeal' } as const;
const KIND_COLOR = { report: 'orange', notice: 'grape', appeal: 'violet' } as const;
const SUBJECT_LABEL = { report: 'Uploader', notice: 'Uploader', appeal: 'Appellant' } as const;

/** One queue item: what it is, its deadline, the subject user's standing, and its actions. */
export function ModerationItem({
  item,
  now,
  busy,
  onAction,
}: {
  item: QueueItem;
  now: number;
  busy: boolean;
  onAction(item: QueueItem, action: ItemAction): void;
}) {
  const open = item.status === 'open';
  const s = item.subject;
  const headingId = `queue-item-${item.id}`;
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="sm"
      bg="dark.6"
      data-testid="queue-item"
      data-kind={item.kind}
      aria-labelledby={headingId}
      style={
        item.overdue ? { borderColor: 'var(--mantine-color-red-6)', borderWidth: 2 } : undefined
      }
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap={6} wrap="wrap">
            <Badge variant="light" color={KIND_COLOR[item.kind]}>
              {KIND_LABEL[item.kind]}
            </Badge>
            <Text fw={600} id={headingId} style={{ overflowWrap: 'anywhere' }}>
              {item.title}
            </Text>
          </Group>
          {open ? (
            <Badge
              color={item.overdue ? 'red' : 'gray'}
              variant={item.overdue ? 'filled' : 'light'}
            >
              {formatDue(item.dueAt, now)}
            </Badge>
          ) : (
            <Badge color="gray" variant="outline">
              {item.detailStatus.replace('_', ' ')}
            </Badge>
          )}
        </Group>
        {item.reason && (
          <Text size="sm">
            {item.kind === 'report' ? 'Reason: ' : item.kind === 'notice' ? 'Work: ' : 'Decision: '}
            {item.reason}
          </Text>
        )}
        {item.note && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            “{item.note}”
          </Text>
        )}
        <Group gap={6} wrap="wrap">
          <Text size="xs" c="dimmed">
            {SUBJECT_LABEL[item.kind]}: {s.name ?? 'unknown account'} ·{' '}
            {s.warnings === 1 ? '1 warning' : `${s.warnings} warnings`} ·{' '}
            {s.strikes === 1 ? '1 copyright strike' : `${s.strikes} copyright strikes`}
          </Text>
          {s.restriction === 'ban' && (
            <Badge size="xs" color="red">
              Banned
            </Badge>
          )}
          {s.restriction === 'suspension' && (
            <Badge size="xs" color="yellow">
              Suspended until{' '}
              {s.suspendedUntil
                ? new Date(s.suspendedUntil).toLocaleDateString('en-GB', { timeZone: 'UTC' })
                : ''}
            </Badge>
          )}
          <Text size="xs" c="dimmed">
            Filed {new Date(item.createdAt).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC
          </Text>
        </Group>
        {item.kind === 'notice' && (
          <div>
            {/* The notice's own page (the copyright flow's): its actions and deadlines. */}
            <Anchor href={`/admin/copyright/${item.id}`} size="sm">
              Open the notice
            </Anchor>
          </div>
        )}
        {open && item.kind !== 'notice' && (
          <Group gap={6} wrap="wrap">
            {actionsOf(item).map((a) => (
              <Button
                key={a.label}
                size="compact-sm"
                variant={a.variant}
                color={a.color}
                disabled={busy || a.disabled}
                onClick={() => onAction(item, a.action)}
              >
                {a.label}
              </Button>
            ))}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
