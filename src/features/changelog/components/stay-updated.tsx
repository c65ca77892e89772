import { Button, Group, Paper, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';

/** Spec: an email input and a Subscribe button that triggers no call. Nothing leaves the page. */
export function StayUpdated() {
  const [submitted, setSubmitted] = useState(false);
  return (
    <Paper
      component="section"
      aria-labelledby="stay-updated-title"
      p="lg"
      radius="lg"
      withBorder
      bg="dark.6"
    >
      <Title id="stay-updated-title" order={2} fz="xl" mb={4}>
        Stay Updated
      </Title>
      <Text size="sm" c="gray.4" mb="md">
        Get an email when we ship something new.
      </Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
        }}
      >
        <Group align="flex-end" gap="sm">
          <TextInput
            type="email"
            name="email"
            label="Email address"
            placeholder="you@example.com"
            autoComplete="email"
            style={{ flex: '1 1 220px' }}
            onChange={() => setSubmitted(false)}
          />
          <Button type="submit">Subscribe</Button>
        </Group>
      </form>
      {submitted ? (
        <Text size="sm" c="gray.3" mt="sm" role="status">
          Email updates are not being sent yet. Until they are, new releases appear on this page
          first.
        </Text>
      ) : null}
    </Paper>
  );
}
