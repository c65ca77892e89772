/**
 * The public copyright notice form (/copyright/notice; docs/trust-and-safety.md): the elements of
 * a notice under 17 U.S.C. §512(c)(3) and DSA art. 16. No sign-in needed. The server validates
 * everything (the `copyright-notice` function) and rate-limits; this form only shows its answer.
 */
import { Alert, Container, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { PublicPage } from '@/components/site/public-page';
import { sendNotice, type NoticeReceipt } from './copyright-remote';
import { SignedForm, type Statement } from './signed-form';

const NOTICE_STATEMENTS: Statement[] = [
  {
    key: 'goodFaith',
    label:
      'I have a good faith belief that the use of the material is not authorized by the copyright owner, its agent, or the law.',
  },
  {
    key: 'accuracy',
    label:
      'The information in this notice is accurate, and under penalty of perjury, I am the owner, or authorized to act on behalf of the owner, of the copyright that is allegedly infringed.',
  },
];

const when = new Intl.DateTimeFormat('en', {
  dateStyle: 'full',
  timeStyle: 'short',
  timeZone: 'UTC',
});

export function NoticeForm({ track }: { track?: string }) {
  const [tracks, setTracks] = useState(
    track ? `${typeof location === 'undefined' ? '' : location.origin}/track/${track}` : '',
  );
  const [receipt, setReceipt] = useState<NoticeReceipt | null>(null);

  const submit = async (field: (name: string) => string) => {
    setReceipt(
      await sendNotice({
        claimantName: field('claimantName'),
        email: field('email'),
        address: field('address'),
        phone: field('phone'),
        work: field('work'),
        trackUrls: tracks
          .split(/[\s,]+/)
          .map((t) => t.trim())
          .filter(Boolean),
        goodFaith: true,
        accuracy: true,
        signature: field('signature'),
      }),
    );
  };

  return (
    <PublicPage>
      <Container size="sm" py={{ base: 32, md: 64 }}>
        <Stack gap="md">
          <Title order={1}>Copyright notice</Title>
          <Text c="gray.3">
            Tell us about tracks on Soundloft that infringe a copyright you own or represent. We
            acknowledge your notice by email at once and remove the tracks within 5 business days if
            the notice is valid. Read the <Link to="/copyright-policy">Copyright Policy</Link>{' '}
            first.
          </Text>
          {receipt ? (
            <Alert color="green" title="Notice received" role="status">
              <Text>
                Reference{receipt.noticeIds.length > 1 ? 's' : ''}: {receipt.noticeIds.join(', ')}
              </Text>
              <Text>
                We sent an acknowledgement to your email address. The tracks are removed by{' '}
                {when.format(new Date(receipt.removalDue))} UTC at the latest if the notice is
                valid.
              </Text>
            </Alert>
          ) : (
            <SignedForm
              label="Copyright notice"
              statements={NOTICE_STATEMENTS}
              missingStatements="Confirm both statements."
              submitLabel="Send notice"
              onSubmit={submit}
            >
              <TextInput name="claimantName" label="Your full name" required autoComplete="name" />
              <TextInput name="email" type="email" label="Email" required autoComplete="email" />
              <TextInput
                name="address"
                label="Postal address (optional)"
                autoComplete="street-address"
              />
              <TextInput name="phone" type="tel" label="Phone (optional)" autoComplete="tel" />
              <Textarea
                name="work"
                label="The copyrighted work"
                description="The song, recording or other work, and who holds the rights."
                required
                autosize
                minRows={3}
              />
              <Textarea
                label="Track links"
                description="One link per line (several tracks make one notice)."
                required
                autosize
                minRows={2}
                value={tracks}
                onChange={(e) => setTracks(e.currentTarget.value)}
              />
            </SignedForm>
          )}
        </Stack>
      </Container>
    </PublicPage>
  );
}
