import { Link } from '@tanstack/react-router';
import { Button, Container, Paper, Stack, Text, Title } from '@mantine/core';

export function SignupCta() {
  return (
    <Container component="section" aria-labelledby="cta-title" size="lg" py={{ base: 32, md: 56 }}>
      <Paper
        radius="xl"
        p={{ base: 'xl', md: 56 }}
        style={{ background: 'linear-gradient(135deg, #ff642b 0%, #c93d0b 55%, #5b2bd1 130%)' }}
      >
        <Stack align="center" ta="center" gap="md">
          <Title id="cta-title" order={2} c="dark.9" fz={{ base: 28, sm: 40 }}>
            Start listening in under a minute
          </Title>
          <Text c="dark.9" fw={500} maw={560}>
            Create a free account, verify your email and press play. Upload your own tracks the same
            day.
          </Text>
          <Button component={Link} to="/signup" size="lg" color="dark.9" c="gray.0">
            Sign Up Free
          </Button>
        </Stack>
      </Paper>
    </Container>
  );
}
