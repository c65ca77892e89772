/**
 * The uploader's counter-notice (/copyright/counter/$noticeId; 17 U.S.C. §512(g)(3)): the
 * notice as they may read it (never the claimant's contact), and once the tracks are removed,
 * the form with the required statements. The database checks who sends it and when.
 */
import { Alert, Loader, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { sendCounterNotice } from './copyright-remote';
import { NoticeSummary } from './notice-summary';
import { SignedForm, type Statement } from './signed-form';
import { useNotice } from './use-notice';

const COUNTER_STATEMENTS: Statement[] = [
  {
    key: 'mistake',
    label:
      'I swear, under penalty of perjury, that I have a good faith belief that the material was removed or disabled as a result of mistake or misidentification of the material to be removed or disabled.',
  },
  {
    key: 'consent',
    label:
      'I consent to the jurisdiction of the Federal District Court for the judicial district in which my address is located (or, if outside the United States, any judicial district in which Soundloft may be found), and I will accept service of process from the person who sent the notice or their agent.',
  },
];

/** `token`: opened with the removal e-mail's link, no sign-in (docs/trust-and-safety.md). */
export function CounterNoticePage({ noticeId, token }: { noticeId: string; token?: string }) {
  const { state, reload } = useNotice(noticeId, token);

  const submit = async (field: (name: string) => string) => {
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
            <SignedForm
              label="Counter-notice"
              statements={COUNTER_STATEMENTS}
              missingStatements="Both statements are required."
              submitLabel="Send counter-notice"
              onSubmit={submit}
            >
              <Text>
                We forward your counter-notice, with your name, address and email, to the claimant.
                Unless they tell us within 10 business days that they have filed a court action, we
                restore your track(s).
              </Text>
              <TextInput name="fullName" label="Your full name" required autoComplete="name" />
              <TextInput
                name="address"
                label="Postal address"
                required
                autoComplete="street-address"
              />
              <TextInput name="phone" type="tel" label="Phone (optional)" autoComplete="tel" />
              <TextInput name="email" type="email" label="Email" required autoComplete="email" />
              <Textarea
                name="explanation"
                label="Why the removal was a mistake"
                required
                autosize
                minRows={3}
              />
            </SignedForm>
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
