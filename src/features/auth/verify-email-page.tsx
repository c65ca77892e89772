import { Button, List, Text, ThemeIcon } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { AuthLayout } from './components/auth-layout';

export function VerifyEmailPage({ email }: { email?: string }) {
  return (
    <AuthLayout
      title="Check your inbox"
      subtitle={
        email ? `We sent a confirmation link to ${email}.` : 'We sent you a confirmation link.'
      }
    >
      <ThemeIcon size={56} radius="xl" variant="light">
        <IconMail size={30} aria-hidden />
      </ThemeIcon>
      <List spacing="xs" size="sm" c="gray.3">
        <List.Item>
          Open the email from Soundloft and follow the link to verify your address.
        </List.Item>
        <List.Item>Then log in with the email and password you chose.</List.Item>
        <List.Item>No email after a few minutes? Check your spam folder.</List.Item>
      </List>
      <Text size="xs" c="dimmed">
        You need to verify your email before you can log in.
      </Text>
      <Button component={Link} to="/login" size="md">
        Go to login
      </Button>
    </AuthLayout>
  );
}
