import {
  Alert,
  Anchor,
  Button,
  Divider,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { login, useAuthStatus } from '@/data/auth';
import { AuthForm } from './components/auth-form';
import { AuthLayout } from './components/auth-layout';
import { ErrorBox } from './components/error-box';
import { GoogleButton } from './components/google-button';
import { TwoFactorStep } from './two-factor-step';

export function LoginPage({ notice }: { notice?: string }) {
  // Signed in with the password, the second factor still owed (docs/account.md).
  if (useAuthStatus() === 'mfa')
    return (
      <AuthLayout title="Two-factor sign-in" subtitle="One more step to keep your account safe.">
        <TwoFactorStep />
      </AuthLayout>
    );
  return <PasswordLogin notice={notice} />;
}

function PasswordLogin({ notice }: { notice?: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = {
      email: email.trim() ? undefined : 'Email is required',
      password: password ? undefined : 'Password is required',
    };
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    setBusy(true);
    setError(null);
    try {
      // On success the auth layout takes the user to /home (spec 4: login success goes there).
      await login(email, password);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Failed to login');
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Log in to Soundloft" subtitle="Welcome back. Your music is waiting.">
      {notice && !error ? (
        <Alert color="teal" variant="light" role="status">
          {notice}
        </Alert>
      ) : null}
      <ErrorBox message={error} />
      <AuthForm onSubmit={(e) => void submit(e)}>
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={email}
            error={fieldErrors.email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            error={fieldErrors.password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Anchor component={Link} to="/forgot-password" size="sm" ta="right">
            Forgot password?
          </Anchor>
          <Button type="submit" size="md" loading={busy}>
            Log In
          </Button>
        </Stack>
      </AuthForm>
      <Divider label="or" labelPosition="center" />
      <GoogleButton onError={setError} />
      <Text size="sm" ta="center" c="gray.4">
        New to Soundloft?{' '}
        <Anchor component={Link} to="/signup" underline="always">
          Sign up free
        </Anchor>
      </Text>
    </AuthLayout>
  );
}
