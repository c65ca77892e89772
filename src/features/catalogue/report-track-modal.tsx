import { Button, Group, Modal, Radio, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import { type Track } from '@/data';
import { reportTrack, type ReportReason } from '@/data/remote/admin-remote';
import { toast } from '@/components/toast';

const REASONS: { value: ReportReason; label: string }[] = [
  { value: 'copyright', label: 'Copyright infringement' },
  { value: 'offensive', label: 'Offensive content' },
  { value: 'spam', label: 'Spam' },
  { value: 'other', label: 'Other' },
];

export interface ReportTrackModalProps {
  track: Track;
  opened: boolean;
  onClose(): void;
}

/** A listener reports a track to the moderators (docs/admin.md: reports and takedowns). */
export function ReportTrackModal({ track, opened, onClose }: ReportTrackModalProps) {
  const [reason, setReason] = useState<ReportReason>('copyright');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);

  async function send() {
    setBusy(true);
    try {
      await reportTrack(track.id, reason, note);
      toast.success('Thanks. Our moderators will review this track.');
      setNote('');
      onClose();
    } catch {
      toast.error('Failed to report track');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={`Report "${track.title}"`} centered>
      <Stack gap="md">
        <Radio.Group
          label="What is wrong with this track?"
          value={reason}
          onChange={(v) => setReason(v as ReportReason)}
        >
          <Stack gap={8} mt={6}>
            {REASONS.map((r) => (
              <Radio key={r.value} value={r.value} label={r.label} />
            ))}
          </Stack>
        </Radio.Group>
        <Textarea
          label="Note (optional)"
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={1000}
          autosize
          minRows={2}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button color="red" loading={busy} onClick={() => void send()}>
            Send report
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
