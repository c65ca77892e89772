import { Button, Container, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { PublicPage } from '@/components/site/public-page';
import { PLANS } from '@/lib/plans';
import { COMPARISON_ROWS } from './comparison-rows';

export function ComparisonPage() {
  return (
    <PublicPage>
      <Container size="lg" py={{ base: 40, md: 72 }}>
        <Stack gap="xs" mb="xl">
          <Title order={1} fz={{ base: 32, sm: 44 }}>
            Compare plans
          </Title>
          <Text c="gray.4" maw={680}>
            Free, Basic and Premium side by side, and against what a typical streaming service
            offers. Prices are per month in EUR; every plan can be cancelled anytime.
          </Text>
        </Stack>
        {/* Scrolls sideways on a phone: a tab stop, so a keyboard can scroll it too (WCAG 2.1.1). */}
        <Table.ScrollContainer
          minWidth={720}
          type="native"
          tabIndex={0}
          role="region"
          aria-label="Plan comparison table"
        >
          <Table
            striped
            highlightOnHover
            verticalSpacing="md"
            horizontalSpacing="md"
            withTableBorder
            aria-label="Soundloft plans compared with a typical streaming service"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Feature</Table.Th>
                {PLANS.map((plan) => (
                  <Table.Th
                    key={plan.id}
                    scope="col"
                    c={plan.id === 'premium' ? 'ember.4' : undefined}
                  >
                    {plan.name}
                  </Table.Th>
                ))}
                <Table.Th scope="col" c="dimmed">
                  Typical streaming service
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {COMPARISON_ROWS.map((row) => (
                <Table.Tr key={row.feature}>
                  <Table.Th scope="row" fw={600}>
                    {row.feature}
                  </Table.Th>
                  {PLANS.map((plan) => (
                    <Table.Td key={plan.id}>{row.plan(plan)}</Table.Td>
                  ))}
                  <Table.Td c="dimmed">{row.competitor}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Text size="xs" c="dimmed" mt="sm">
          The typical streaming service column summarises the free and paid tiers of the large
          streaming services as publicly described in 2026; details differ between services and
          markets.
        </Text>
        <Group mt="xl" gap="sm">
          <Button component={Link} to="/signup" size="md">
            Sign Up for Free
          </Button>
          <Button component="a" href="/subscription" size="md" variant="light">
            Explore All Plans
          </Button>
          <Button
            component={Link}
            to="/"
            size="md"
            variant="default"
            leftSection={<IconArrowLeft size={16} aria-hidden />}
          >
            Back to Landing
          </Button>
        </Group>
      </Container>
    </PublicPage>
  );
}
