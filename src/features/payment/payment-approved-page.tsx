import { Link } from '@tanstack/react-router';
import { Button, Container, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { PublicPage } from '@/components/site/public-page';

/** Payment Successful. The plan polling of spec section 4 joins this page with payments. */
export function PaymentApprovedPage() {
  return (
    <PublicPage>
      <Container size="sm" py={{ base: 48, md: 96 }}>
        <Stack align="center" ta="center" gap="lg">
          <ThemeIcon size={72} radius="xl" color="teal" variant="light">
            <IconCircleCheck size={40} aria-hidden />
          </ThemeIcon>
          <Title order={1}>Payment Successful</Title>
          <Text c="gray.3">
            Thank you for subscribing. Your new plan is active as soon as the payment provider
            confirms it, usually within a few seconds.
          </Text>
          <Button component={Link} to="/home" size="md">
            Go to Home
          </Button>
        </Stack>
      </Container>
    </PublicPage>
  );
}
