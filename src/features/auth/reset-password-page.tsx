import { Alert, Anchor, Button, Loader, PasswordInput, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { setNewPassword, useAuth } from '@/data/auth';
import { PASSWORD_MIN_LENGTH } from '@/lib/constants';
import { AuthLayout } from './components/auth-layout';
import { ErrorBox } from './components/error-box';

/** The recovery link signs the user in; they set a new password here and go on to /login. */
export function ResetPasswordPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password.length < PASSWORD_MIN_LENGTH) {
      setFieldError(`Password must be at least ${PASSWORD_MIN_LENGTH} characters`);
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    setError(null);
    try {
      await setNewPassword(password);
      await navigate({ to: '/login', search: { reset: 'done' } });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Profile update failed');
      setBusy(false);
    }
  };

  if (auth.status === 'loading') {
    return (
      <AuthLayout title="Set a new password">
        <Loader aria-label="Checking your reset link" />
      </AuthLayout>
    );
  }
  if (auth.status !== 'authenticated') {
    return (
      <AuthLayout title="Set a new password">
        <Alert color="red" variant="light" role="alert">
          This reset link is invalid or has expired. Request a new one.
        </Alert>
        <Button component={Link} to="/forgot-password" size="md">
          Request a new link
        </Button>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout
      title="Set a new password"
      subtitle={`For ${auth.session?.user.email ?? 'your account'}`}
    >
      <ErrorBox message={error} />
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="md">
          <PasswordInput
            label="New password"
            description={`At least ${PASSWORD_MIN_LENGTH} characters`}
            autoComplete="new-password"
            required
            value={password}
            error={fieldError}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Button type="submit" size="md" loading={busy}>
            Save new password
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center" c="gray.4">
        <Anchor component={Link} to="/login" underline="always">
          Back to login
        </Anchor>
      </Text>
    </AuthLayout>
  );
}
