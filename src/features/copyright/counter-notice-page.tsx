/**
 * The uploader's counter-notice (/copyright/counter/$noticeId; 17 U.S.C. §512(g)(3)): the
 * notice as they may read it (never the claimant's contact), and once the tracks are removed,
 * the form with the required statements. The database checks who sends it and when.
 */
import {
  Alert,
  Button,
  Checkbox,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { sendCounterNotice } from './copyright-remote';
import { NoticeSummary } from './notice-summary';
import { useNotice } from './use-notice';

/** `token`: opened with the removal e-mail's link, no sign-in (docs/trust-and-safety.md). */
export function CounterNoticePage({ noticeId, token }: { noticeId: string; token?: string }) {
  const { state, reload } = useNotice(noticeId, token);
  const [mistake, setMistake] = useState(false);
  const [consent, setConsent] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => String(form.get(name) ?? '').trim();
    if (!mistake || !consent) {
      setError('Both statements are required.');
      return;
    }
    setSending(true);
    setError(null);
    try {
      await sendCounterNotice(
        noticeId,
        {
          fullName: field('fullName'),
          address: field('address'),
          phone: field('phone'),
          email: field('email'),
          explanation: field('explanation'),
          signature: field('signature'),
        },
        token,
      );
      reload();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack gap="md" maw={760}>
      <Title order={1}>Counter-notice</Title>
      {state.kind === 'loading' ? <Loader aria-label="Loading the notice" /> : null}
      {state.kind === 'error' ? (
        <Alert color="red" role="alert">
          {state.message}
        </Alert>
      ) : null}
      {state.kind === 'missing' ? (
        <Text>This notice does not exist or is not about your tracks.</Text>
      ) : null}
      {state.kind === 'loaded' ? (
        <>
          <NoticeSummary detail={state.detail} />
          {state.detail.notice.status === 'removed' ? (
            <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
              <form onSubmit={(e) => void submit(e)} aria-label="Counter-notice" noValidate>
                <Stack gap="sm">
                  <Text>
                    We forward your counter-notice, with your name, address and email, to the
                    claimant. Unless they tell us within 10 business days that they have filed a
                    court action, we restore your track(s).
                  </Text>
                  <TextInput name="fullName" label="Your full name" required autoComplete="name" />
                  <TextInput
                    name="address"
                    label="Postal address"
                    required
                    autoComplete="street-address"
                  />
                  <TextInput name="phone" type="tel" label="Phone (optional)" autoComplete="tel" />
                  <TextInput
                    name="email"
                    type="email"
                    label="Email"
                    required
                    autoComplete="email"
                  />
                  <Textarea
                    name="explanation"
                    label="Why the removal was a mistake"
                    required
                    autosize
                    minRows={3}
                  />
                  <Checkbox
                    checked={mistake}
                    onChange={(e) => setMistake(e.currentTarget.checked)}
                    label="I swear, under penalty of perjury, that I have a good faith belief that the material was removed or disabled as a result of mistake or misidentification of the material to be removed or disabled."
                  />
                  <Checkbox
                    checked={consent}
                    onChange={(e) => setConsent(e.currentTarget.checked)}
                    label="I consent to the jurisdiction of the Federal District Court for the judicial district in which my address is located (or, if outside the United States, any judicial district in which Soundloft may be found), and I will accept service of process from the person who sent the notice or their agent."
                  />
                  <TextInput
                    name="signature"
                    label="Signature"
                    description="Type your full name."
                    required
                  />
                  {error ? (
                    <Alert color="red" role="alert">
                      {error}
                    </Alert>
                  ) : null}
                  <Button type="submit" loading={sending}>
                    Send counter-notice
                  </Button>
                </Stack>
              </form>
            </Paper>
          ) : null}
          {state.detail.notice.status === 'counter_noticed' ? (
            <Alert color="blue" role="status">
              Your counter-notice was forwarded to the claimant.
            </Alert>
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}
