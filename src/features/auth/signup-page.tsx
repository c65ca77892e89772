import { Anchor, Button, Divider, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { signup } from '@/data/auth';
import { PASSWORD_MIN_LENGTH } from '@/lib/constants';
import { AuthForm } from './components/auth-form';
import { AuthLayout } from './components/auth-layout';
import { ErrorBox } from './components/error-box';
import { GoogleButton } from './components/google-button';

interface Fields {
  name: string;
  email: string;
  password: string;
}

function validate({ name, email, password }: Fields): Partial<Record<keyof Fields, string>> {
  return {
    name: name.trim() ? undefined : 'Full name is required',
    email: email.trim() ? undefined : 'Email is required',
    password: !password
      ? 'Password is required'
      : password.length < PASSWORD_MIN_LENGTH
        ? `Password must be at least ${PASSWORD_MIN_LENGTH} characters`
        : undefined,
  };
}

export function SignupPage() {
  const navigate = useNavigate();
  const [fields, setFields] = useState<Fields>({ name: '', email: '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof Fields, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const update = (key: keyof Fields) => (e: { currentTarget: HTMLInputElement }) => {
    const value = e.currentTarget.value;
    setFields((f) => ({ ...f, [key]: value }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = validate(fields);
    setFieldErrors(errors);
    if (Object.values(errors).some(Boolean)) return;
    setBusy(true);
    setError(null);
    try {
      await signup(fields.email, fields.password, fields.name);
      await navigate({ to: '/verify-email', search: { email: fields.email.trim() } });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Failed to sign up');
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Create your account" subtitle="Free forever. No credit card needed.">
      <ErrorBox message={error} />
      <AuthForm onSubmit={(e) => void submit(e)}>
        <Stack gap="md">
          <TextInput
            label="Full name"
            autoComplete="name"
            required
            value={fields.name}
            error={fieldErrors.name}
            onChange={update('name')}
          />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={fields.email}
            error={fieldErrors.email}
            onChange={update('email')}
          />
          <PasswordInput
            label="Password"
            description={`At least ${PASSWORD_MIN_LENGTH} characters`}
            autoComplete="new-password"
            required
            value={fields.password}
            error={fieldErrors.password}
            onChange={update('password')}
          />
          <Button type="submit" size="md" loading={busy}>
            Sign Up Free
          </Button>
        </Stack>
      </AuthForm>
      <Divider label="or" labelPosition="center" />
      <GoogleButton onError={setError} />
      <Text size="xs" c="dimmed" ta="center">
        By signing up you agree to our{' '}
        <Anchor component={Link} to="/terms-of-service" underline="always">
          Terms of Service
        </Anchor>{' '}
        and{' '}
        <Anchor component={Link} to="/privacy-policy" underline="always">
          Privacy Policy
        </Anchor>
        .
      </Text>
      <Text size="sm" ta="center" c="gray.4">
        Already have an account?{' '}
        <Anchor component={Link} to="/login" underline="always">
          Log in
        </Anchor>
      </Text>
    </AuthLayout>
  );
}
