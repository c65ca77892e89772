import { Alert, Button, Container, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBulb, IconCreditCardOff } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { PublicPage } from '@/components/site/public-page';

export function PaymentFailedPage() {
  return (
    <PublicPage>
      <Container size="sm" py={{ base: 48, md: 96 }}>
        <Stack align="center" ta="center" gap="lg">
          <ThemeIcon size={72} radius="xl" color="red" variant="light">
            <IconCreditCardOff size={40} aria-hidden />
          </ThemeIcon>
          <Title order={1}>Payment Failed</Title>
          <Text c="gray.3">
            We could not complete your payment, and you have not been charged. Your plan has not
            changed.
          </Text>
          <Alert
            variant="light"
            color="yellow"
            icon={<IconBulb aria-hidden />}
            title="Tip"
            ta="left"
            w="100%"
          >
            Check that your card number, expiry date, security code and billing details are correct,
            and that your card allows online payments. Then try again, or use another card.
          </Alert>
          <Group gap="sm" justify="center">
            <Button component="a" href="/subscription" size="md">
              Back to plans
            </Button>
            <Button component={Link} to="/faq" size="md" variant="default">
              Read the FAQ
            </Button>
          </Group>
        </Stack>
      </Container>
    </PublicPage>
  );
}
