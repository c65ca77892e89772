import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { resetPassword } from '@/data/auth';
import { AuthForm } from './components/auth-form';
import { AuthLayout } from './components/auth-layout';
import { ErrorBox } from './components/error-box';

type Phase = 'idle' | 'sending' | 'sent';

/** Spec 4: idle, sending, sent; the notice clears on editing the email or on error. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [sentTo, setSentTo] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = email.trim();
    if (!trimmed) {
      setFieldError('Email is required');
      return;
    }
    setFieldError(undefined);
    setError(null);
    setPhase('sending');
    try {
      await resetPassword(trimmed);
      setSentTo(trimmed);
      setPhase('sent');
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Failed to send reset email');
      setPhase('idle');
    }
  };

  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter your email and we will send you a link to set a new one."
    >
      <ErrorBox message={error} />
      {phase === 'sent' ? (
        <Alert color="teal" variant="light" icon={<IconMailCheck aria-hidden />} role="status">
          If an account exists for {sentTo}, a reset link is on its way. Please check your inbox.
        </Alert>
      ) : null}
      <AuthForm onSubmit={(e) => void submit(e)}>
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={email}
            error={fieldError}
            onChange={(e) => {
              setEmail(e.currentTarget.value);
              if (phase === 'sent') setPhase('idle');
            }}
          />
          <Button type="submit" size="md" loading={phase === 'sending'}>
            Send reset link
          </Button>
        </Stack>
      </AuthForm>
      <Text size="sm" ta="center" c="gray.4">
        Remembered it?{' '}
        <Anchor component={Link} to="/login" underline="always">
          Back to login
        </Anchor>
      </Text>
    </AuthLayout>
  );
}
