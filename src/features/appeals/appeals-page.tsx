import {
  Alert,
  Badge,
  Button,
  Container,
  Paper,
  Skeleton,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useSessionUserId } from '@/data/auth';
import { fetchMyDecisions, fileAppeal, type MyDecision } from '@/data/remote/moderation-remote';
import { useServerRead } from '@/data/repositories/use-server-read';
import { toast } from '@/components/toast';
import { LEGAL } from '@/lib/constants';

const DAY = 86_400_000;
const dateText = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  }) + ' UTC';

/**
 * /appeals (docs/trust-and-safety.md § Appeals; DSA art. 20): the signed-in user's moderation
 * decisions (sanctions, removed tracks) with their reasons, and an appeal form for each within
 * 30 days. The server checks whose decision it is, the 30 days and that it is the only appeal.
 */
export function AppealsPage() {
  const userId = useSessionUserId();
  const [now] = useState(() => Date.now());
  const decisions = useServerRead(() => fetchMyDecisions(userId ?? ''), userId ?? null);
  return (
    <Container size="md" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="lg">
        <div>
          <Title order={1}>Moderation decisions</Title>
          <Text c="dimmed">
            You can appeal a moderation decision within {LEGAL.appealWindowDays} days. We respond to
            appeals within {LEGAL.appealResponseBusinessDays} business days.
          </Text>
        </div>
        {decisions.error && !decisions.data ? (
          <Alert color="red" title="Failed to load your moderation decisions">
            <Button size="xs" variant="default" onClick={() => void decisions.reload()}>
              Try again
            </Button>
          </Alert>
        ) : !decisions.data ? (
          <Skeleton h={120} role="status" aria-label="Loading your moderation decisions" />
        ) : decisions.data.length === 0 ? (
          <Text c="dimmed">There are no moderation decisions about your account.</Text>
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {decisions.data.map((d) => (
              <Decision
                key={d.key}
                decision={d}
                now={now}
                onFiled={() => void decisions.reload()}
              />
            ))}
          </Stack>
        )}
      </Stack>
    </Container>
  );
}

/** One decision and its appeal form; `file` sends the appeal (default: signed in). */
export function Decision({
  decision: d,
  now,
  onFiled,
  file = (statement) => fileAppeal({ sanctionId: d.sanctionId, trackId: d.trackId }, statement),
}: {
  decision: MyDecision;
  now: number;
  onFiled(): void;
  file?: (statement: string) => Promise<void>;
}) {
  const [writing, setWriting] = useState(false);
  const [statement, setStatement] = useState('');
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const headingId = `decision-${d.key.replace(':', '-')}`;
  const inTime = now < Date.parse(d.decidedAt) + LEGAL.appealWindowDays * DAY;
  const appealable = !d.appeal && !d.lifted && inTime;
  const tooShort = statement.trim().length < 10;

  async function send() {
    setTried(true);
    if (tooShort) return;
    setBusy(true);
    try {
      await file(statement.trim());
      toast.success('Appeal sent');
      setWriting(false);
      onFiled();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Failed to send your appeal');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="md"
      bg="dark.6"
      aria-labelledby={headingId}
      data-testid="decision"
    >
      <Stack gap={6}>
        <Text fw={600} id={headingId} style={{ overflowWrap: 'anywhere' }}>
          {d.title}
          {d.lifted && (
            <Badge ml="xs" color="green" variant="light">
              Lifted
            </Badge>
          )}
        </Text>
        <Text size="sm">Reason: {d.reason}</Text>
        <Text size="xs" c="dimmed">
          Decided {dateText(d.decidedAt)}
          {d.endsAt ? ` · ends ${dateText(d.endsAt)}` : ''}
        </Text>
        {d.appeal ? (
          <Text size="sm" role="status">
            {d.appeal.status === 'open'
              ? `Appeal received: we will answer by ${dateText(d.appeal.dueAt)}.`
              : `Appeal ${d.appeal.status === 'overturned' ? 'successful' : 'rejected'}: ${d.appeal.answer ?? ''}`}
          </Text>
        ) : !appealable ? (
          !d.lifted && (
            <Text size="sm" c="dimmed">
              The {LEGAL.appealWindowDays} days to appeal this decision are over.
            </Text>
          )
        ) : writing ? (
          <Stack gap="xs">
            <Textarea
              label="Why should we change this decision?"
              value={statement}
              onChange={(e) => setStatement(e.currentTarget.value)}
              minLength={10}
              maxLength={4000}
              autosize
              minRows={3}
              required
              error={tried && tooShort ? 'Say why in at least 10 characters.' : undefined}
            />
            <div>
              <Button onClick={() => void send()} loading={busy}>
                Send appeal
              </Button>{' '}
              <Button variant="default" onClick={() => setWriting(false)} disabled={busy}>
                Cancel
              </Button>
            </div>
          </Stack>
        ) : (
          <div>
            <Button variant="light" onClick={() => setWriting(true)}>
              Appeal
            </Button>
          </div>
        )}
      </Stack>
    </Paper>
  );
}
