import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { toast } from '@/components/toast';
import { changePassword, requestReauthentication } from '@/data/auth';

/**
 * Password change: proven by the current password, or (for an account without one, e.g. Google
 * sign-in, or a forgotten one) by the six-digit code of a reauthentication mail. GoTrue signs
 * the other devices out when the password changes.
 */
export function PasswordForm() {
  const [mode, setMode] = useState<'password' | 'code'>('password');
  const [current, setCurrent] = useState('');
  const [code, setCode] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [codeSent, setCodeSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const sendCode = () => {
    setError(null);
    requestReauthentication()
      .then(() => {
        setCodeSent(true);
        setMode('code');
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : 'Failed to send the code'));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (next.length < 6) return setError('Password must be at least 6 characters');
    if (next !== confirm) return setError('Passwords do not match');
    if (mode === 'password' && !current) return setError('Enter your current password');
    if (mode === 'code' && !/^\d{6}$/.test(code.trim()))
      return setError('Enter the six-digit code from the email');
    setBusy(true);
    setError(null);
    changePassword({
      password: next,
      ...(mode === 'password' ? { currentPassword: current } : { nonce: code }),
    })
      .then(() => {
        toast.success('Password changed. Your other devices were signed out.');
        setCurrent('');
        setCode('');
        setNext('');
        setConfirm('');
        setCodeSent(false);
        setMode('password');
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : 'Failed to change password'))
      .finally(() => setBusy(false));
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Change password">
      <Stack gap="sm" maw={420}>
        {mode === 'password' ? (
          <>
            <PasswordInput
              label="Current password"
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.currentTarget.value)}
            />
            <Text size="xs" c="dimmed">
              No password yet, or forgot it?{' '}
              <Anchor component="button" type="button" size="xs" onClick={sendCode}>
                Email me a code instead
              </Anchor>
            </Text>
          </>
        ) : (
          <>
            {codeSent ? (
              <Text size="sm" role="status">
                We emailed you a six-digit code.
              </Text>
            ) : null}
            <TextInput
              label="Code from the email"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
            />
          </>
        )}
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.currentTarget.value)}
        />
        <PasswordInput
          label="Confirm new password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.currentTarget.value)}
        />
        <Text size="xs" c="dimmed">
          Changing your password signs you out on your other devices.
        </Text>
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        <Button type="submit" loading={busy} style={{ alignSelf: 'flex-start' }}>
          Change password
        </Button>
      </Stack>
    </form>
  );
}
