import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { changeEmail } from '@/data/auth';

export const EMAIL_CHANGE_SENT =
  'We sent a confirmation link to both addresses. Your email changes once both links are opened.';

/** E-mail change (GoTrue's secure change: the current and the new address confirm). */
export function EmailForm({ email, pending }: { email: string; pending: string | null }) {
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  // The first of the two links lands here with GoTrue's message in the fragment.
  const [linkMessage] = useState(() =>
    new URLSearchParams(window.location.hash.slice(1)).get('message'),
  );
  useEffect(() => {
    if (linkMessage)
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }, [linkMessage]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = value.trim();
    if (!next) return setError('Enter your new email address');
    if (next.toLowerCase() === email.toLowerCase())
      return setError('This is already your email address');
    setBusy(true);
    setError(null);
    changeEmail(next)
      .then(() => {
        setSent(next);
        setValue('');
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : 'Failed to change email'))
      .finally(() => setBusy(false));
  };

  const waiting = sent ?? pending;
  return (
    <Stack gap="xs">
      <Text size="sm">
        Email: <strong data-testid="account-email">{email}</strong>
      </Text>
      {linkMessage ? (
        <Alert color="teal" role="status" title="One address confirmed">
          {linkMessage}
        </Alert>
      ) : null}
      {waiting ? (
        <Alert color="blue" role="status" title={`Waiting for ${waiting}`}>
          {EMAIL_CHANGE_SENT}
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate aria-label="Change email">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            type="email"
            label="New email address"
            autoComplete="email"
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={error}
            style={{ flex: '1 1 16rem' }}
          />
          <Button type="submit" loading={busy}>
            Change email
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
