import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { completeTwoFactorSignIn, logout, signInWithRecoveryCode } from '@/data/auth';
import { toast } from '@/components/toast';
import { ErrorBox } from './components/error-box';

/**
 * The second step of a sign-in for an account with two-factor sign-in: the authenticator app's
 * six-digit code, or a recovery code (which turns two-factor sign-in off, docs/account.md).
 */
export function TwoFactorStep() {
  const [mode, setMode] = useState<'code' | 'recovery'>('code');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const text = value.trim();
    if (mode === 'code' && !/^\d{6}$/.test(text))
      return setError('Enter the six-digit code from your authenticator app');
    if (mode === 'recovery' && !text) return setError('Enter one of your recovery codes');
    setBusy(true);
    setError(null);
    try {
      // On success the auth state becomes authenticated and the layout takes the user home.
      if (mode === 'code') await completeTwoFactorSignIn(text);
      else {
        await signInWithRecoveryCode(text);
        toast.success(
          'Signed in with a recovery code. Two-factor sign-in is now off: turn it on again in Settings.',
        );
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Failed to verify the code');
      setBusy(false);
    }
  };

  const switchTo = (next: 'code' | 'recovery') => {
    setMode(next);
    setValue('');
    setError(null);
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="gray.3">
        {mode === 'code'
          ? 'Enter the six-digit code from your authenticator app.'
          : 'Enter one of the recovery codes you saved when you turned on two-factor sign-in.'}
      </Text>
      <ErrorBox message={error} />
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Two-factor sign-in">
        <Stack gap="md">
          {mode === 'code' ? (
            <TextInput
              key="code"
              label="Authentication code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              data-autofocus
              value={value}
              onChange={(e) => setValue(e.currentTarget.value)}
            />
          ) : (
            <TextInput
              key="recovery"
              label="Recovery code"
              autoComplete="off"
              value={value}
              onChange={(e) => setValue(e.currentTarget.value)}
            />
          )}
          <Button type="submit" size="md" loading={busy}>
            Verify
          </Button>
        </Stack>
      </form>
      <Anchor
        component="button"
        type="button"
        size="sm"
        onClick={() => switchTo(mode === 'code' ? 'recovery' : 'code')}
      >
        {mode === 'code' ? 'Use a recovery code instead' : 'Use the authenticator app instead'}
      </Anchor>
      <Anchor component="button" type="button" size="sm" c="dimmed" onClick={() => void logout()}>
        Cancel and sign out
      </Anchor>
    </Stack>
  );
}
