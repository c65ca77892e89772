import { Checkbox, NumberInput, Radio, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import type { SanctionInput, SanctionKind } from '@/data/remote/moderation-remote';
import { ConfirmDialog } from './confirm-dialog';

export const SUSPENSION_DAYS = { min: 7, max: 30 } as const;

const CONFIRM: Record<SanctionKind, string> = {
  warning: 'Warn',
  suspension: 'Suspend',
  ban: 'Ban',
};

/**
 * (Keyed by its item and step by the caller: each opening starts from a clean form.)
 * The ladder (spec §4 'Moderation ladder'): a warning (with the removal of the reported track), a
 * suspension of 7–30 days chosen here, or a permanent ban; always with the reason the user reads.
 * The server checks the same bounds (admin_sanction_user).
 */
export function SanctionDialog({
  opened,
  userName,
  initialKind,
  canRemoveTrack,
  busy,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  userName: string;
  initialKind: SanctionKind;
  /** A report's track can be removed with a warning. */
  canRemoveTrack: boolean;
  busy: boolean;
  onConfirm(input: SanctionInput): void;
  onClose(): void;
}) {
  const [kind, setKind] = useState<SanctionKind>(initialKind);
  const [days, setDays] = useState<number>(SUSPENSION_DAYS.min);
  const [reason, setReason] = useState('');
  const [removeTrack, setRemoveTrack] = useState(true);
  const [tried, setTried] = useState(false);

  const daysValid =
    Number.isInteger(days) && days >= SUSPENSION_DAYS.min && days <= SUSPENSION_DAYS.max;
  const valid = reason.trim().length > 0 && (kind !== 'suspension' || daysValid);
  return (
    <ConfirmDialog
      opened={opened}
      title={`Sanction ${userName}`}
      message="The user receives an e-mail with the decision, its reason and how to appeal."
      confirmLabel={CONFIRM[kind]}
      busy={busy}
      onConfirm={() => {
        setTried(true);
        if (valid) onConfirm({ kind, reason: reason.trim(), days, removeTrack });
      }}
      onClose={onClose}
    >
      <Stack gap="sm">
        <Radio.Group
          label="Step of the ladder"
          value={kind}
          onChange={(v) => setKind(v as SanctionKind)}
        >
          <Stack gap={6} mt={6}>
            <Radio value="warning" label="Warning with content removal" />
            <Radio value="suspension" label="Suspension (7–30 days)" />
            <Radio value="ban" label="Permanent ban" />
          </Stack>
        </Radio.Group>
        {kind === 'warning' && canRemoveTrack && (
          <Checkbox
            label="Remove the reported track"
            checked={removeTrack}
            onChange={(e) => setRemoveTrack(e.currentTarget.checked)}
          />
        )}
        {kind === 'suspension' && (
          <NumberInput
            label="Days of suspension"
            min={SUSPENSION_DAYS.min}
            max={SUSPENSION_DAYS.max}
            step={1}
            allowDecimal={false}
            value={days}
            onChange={(v) => setDays(typeof v === 'number' ? v : Number(v))}
            error={tried && !daysValid ? 'A suspension lasts 7 to 30 days.' : undefined}
          />
        )}
        <ReasonField value={reason} onChange={setReason} tried={tried} />
      </Stack>
    </ConfirmDialog>
  );
}

/** The reason an admin gives for a decision; the user reads it in the e-mail (required). */
export function ReasonField({
  value,
  onChange,
  tried,
}: {
  value: string;
  onChange(value: string): void;
  /** Show the error once the admin tried to confirm. */
  tried: boolean;
}) {
  return (
    <Textarea
      label="Reason (sent to the user)"
      required
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      maxLength={2000}
      autosize
      minRows={2}
      error={tried && value.trim() === '' ? 'Give the reason.' : undefined}
    />
  );
}
