/**
 * The claimant's legal-action page (/copyright/legal-action#<token>; docs/trust-and-safety.md §
 * The claimant's legal-action link): opened from the mail that forwarded the counter-notice, no
 * account needed. The token travels in the URL's fragment (never sent to a server with the page
 * request, never in a Referer); the database checks it (single purpose, unused, before the 10
 * business days end) on every call.
 */
import {
  Alert,
  Container,
  List,
  Loader,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { PublicPage } from '@/components/site/public-page';
import {
  loadLegalActionLink,
  recordClaimantLegalAction,
  type LegalActionLink,
} from './copyright-remote';
import { SignedForm, type Statement } from './signed-form';

const when = new Intl.DateTimeFormat('en', {
  dateStyle: 'full',
  timeStyle: 'short',
  timeZone: 'UTC',
});

const STATEMENTS: Statement[] = [
  {
    key: 'filed',
    label:
      'I confirm that I, or the rights holder I represent, have filed an action seeking a court order to restrain the uploader from engaging in infringing activity relating to the material named in the notice.',
  },
];

type State =
  | { kind: 'loading' }
  | { kind: 'invalid'; message: string }
  | { kind: 'open'; link: LegalActionLink }
  | { kind: 'recorded' };

/** The token of the page's URL fragment (`#<64 hex>`), or '' when there is none. */
function tokenOfLocation(): string {
  return typeof location === 'undefined' ? '' : location.hash.replace(/^#/, '').trim();
}

export function LegalActionPage() {
  const [token] = useState(tokenOfLocation);
  const [state, setState] = useState<State>(() =>
    token
      ? { kind: 'loading' }
      : { kind: 'invalid', message: 'This page opens from the link in our email.' },
  );

  useEffect(() => {
    if (!token) return;
    loadLegalActionLink(token).then(
      (link) => setState({ kind: 'open', link }),
      (e: unknown) =>
        setState({ kind: 'invalid', message: e instanceof Error ? e.message : String(e) }),
    );
  }, [token]);

  const submit = async (field: (name: string) => string) => {
    await recordClaimantLegalAction(token, {
      court: field('court'),
      caseReference: field('caseReference'),
      statement: field('statement'),
      signature: field('signature'),
    });
    setState({ kind: 'recorded' });
  };

  return (
    <PublicPage>
      <Container size="sm" py={{ base: 32, md: 64 }}>
        <Stack gap="md">
          <Title order={1}>Record a court action</Title>
          {state.kind === 'loading' ? <Loader aria-label="Checking the link" /> : null}
          {state.kind === 'invalid' ? (
            <Alert color="red" role="alert" title="This link cannot be used">
              {state.message} If you filed a court action, reply to the email that forwarded the
              counter-notice.
            </Alert>
          ) : null}
          {state.kind === 'recorded' ? (
            <Alert color="green" role="status" title="Court action recorded">
              The track(s) stay removed. We told the uploader.
            </Alert>
          ) : null}
          {state.kind === 'open' ? (
            <>
              <Text c="gray.3">
                Dear {state.link.claimant_name}, the uploader sent a counter-notice to your notice{' '}
                {state.link.notice_id}. We restore the track(s) below on{' '}
                {when.format(new Date(state.link.restore_due))} UTC unless you record here, before
                then, that you have filed an action seeking a court order against the uploader.
              </Text>
              <List aria-label="Tracks of the notice">
                {state.link.tracks.map((t) => (
                  <List.Item key={t.id}>
                    “{t.title}” by {t.artist}
                  </List.Item>
                ))}
              </List>
              <SignedForm
                label="Court action"
                statements={STATEMENTS}
                missingStatements="Confirm that the action was filed."
                submitLabel="Record the court action"
                onSubmit={submit}
              >
                <TextInput
                  name="court"
                  label="Court"
                  description="For example: U.S. District Court for the Southern District of New York."
                  required
                />
                <TextInput name="caseReference" label="Case reference" required />
                <Textarea
                  name="statement"
                  label="Statement"
                  description="What the action seeks, and against whom."
                  required
                  autosize
                  minRows={3}
                />
              </SignedForm>
            </>
          ) : null}
        </Stack>
      </Container>
    </PublicPage>
  );
}
