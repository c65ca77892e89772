import { Alert, Container, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { fileAppealByLink, openAppealLink, type MyDecision } from '@/data/remote/moderation-remote';
import { LEGAL } from '@/lib/constants';
import { Decision } from './appeals-page';

type State =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'loaded'; decision: MyDecision };

/**
 * /appeals/link#t=<token> (docs/trust-and-safety.md § Action links; DSA art. 20): the decision a
 * ban e-mail's link names, and its appeal form, without signing in (a banned account cannot).
 * The server checks the token (that decision only, 30 days, once).
 */
export function AppealByLinkPage({ token }: { token: string | undefined }) {
  const [now] = useState(() => Date.now());
  const [state, setState] = useState<State>({ kind: 'loading' });
  const load = useCallback(() => {
    if (!token) return;
    openAppealLink(token).then(
      (decision) => setState({ kind: 'loaded', decision }),
      (e: unknown) =>
        setState({ kind: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
  }, [token]);
  useEffect(load, [load]);
  const shown: State = token ? state : { kind: 'error', message: 'This link is not valid.' };
  return (
    <Container size="md" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="lg">
        <div>
          <Title order={1}>Appeal a moderation decision</Title>
          <Text c="dimmed">
            You can appeal a moderation decision within {LEGAL.appealWindowDays} days. We respond to
            appeals within {LEGAL.appealResponseBusinessDays} business days.
          </Text>
        </div>
        {shown.kind === 'loading' ? (
          <Skeleton h={120} role="status" aria-label="Loading the decision" />
        ) : shown.kind === 'error' ? (
          <Alert color="red" role="alert" title="This link cannot be used">
            {shown.message}
          </Alert>
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            <Decision
              decision={shown.decision}
              now={now}
              onFiled={load}
              file={(statement) =>
                fileAppealByLink(token ?? '', shown.decision.sanctionId ?? '', statement)
              }
            />
          </Stack>
        )}
      </Stack>
    </Container>
  );
}
