import { Container, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { ButtonLink } from '@/components/router-links';

/** A full-page notice of the admin pages: why they are not shown, and where to go. */
export function AdminNotice(props: {
  icon: ReactNode;
  color: string;
  title: string;
  text: string;
  action: ReactNode;
}) {
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md" ta="center">
        <ThemeIcon size={64} radius="xl" variant="light" color={props.color} aria-hidden>
          {props.icon}
        </ThemeIcon>
        <Title order={1} size="h2">
          {props.title}
        </Title>
        <Text c="dimmed">{props.text}</Text>
        {props.action}
      </Stack>
    </Container>
  );
}

/** Spec 2: what a non-admin sees at /admin (the server refuses their admin reads anyway). */
export function AdminDenied() {
  return (
    <AdminNotice
      icon={<IconLock size={32} />}
      color="red"
      title="Administrator Access Required"
      text="This page is only available to Soundloft administrators."
      action={<ButtonLink to="/home">Return to Home</ButtonLink>}
    />
  );
}
