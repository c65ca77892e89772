import { Alert, Button, Text, ThemeIcon } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { AuthLayout } from './components/auth-layout';

/** The error a used or expired confirmation link leaves in the URL fragment, if any. */
function readLinkError(): string | null {
  const description = new URLSearchParams(window.location.hash.slice(1)).get('error_description');
  return description ? description.replace(/\+/g, ' ') : null;
}

/**
 * Reads what the confirmation link left in the URL fragment, then removes it from the address
 * bar (it may hold tokens, which are not used: the user logs in next, spec 4).
 */
function useConfirmationOutcome(): string | null {
  const [error] = useState(readLinkError);
  useEffect(() => {
    if (window.location.hash) {
      window.history.replaceState(window.history.state, '', window.location.pathname);
    }
  }, []);
  return error;
}

export function VerifyEmailSuccessPage() {
  const error = useConfirmationOutcome();
  if (error) {
    return (
      <AuthLayout title="Email not verified">
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
        <Text c="gray.3" size="sm">
          Confirmation links work once and expire after a while. Log in to get a new one sent, or
          sign up again.
        </Text>
        <Button component={Link} to="/login" size="md">
          Go to login
        </Button>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Email verified">
      <ThemeIcon size={56} radius="xl" color="teal" variant="light">
        <IconCircleCheck size={30} aria-hidden />
      </ThemeIcon>
      <Text c="gray.3">Your email address is confirmed. Welcome to Soundloft!</Text>
      <Button component={Link} to="/login" size="md">
        Continue to login
      </Button>
    </AuthLayout>
  );
}
