import { Badge, Button, Container, Group, Paper, SimpleGrid, Stack, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { PlanSummary } from '@/components/plan-summary';
import { PLANS } from '@/lib/plans';
import { SectionHeading } from './section-heading';

export function PricingTeaser() {
  return (
    <Container
      component="section"
      id="pricing"
      tabIndex={-1}
      aria-labelledby="pricing-title"
      size="lg"
      py={{ base: 56, md: 88 }}
    >
      <SectionHeading
        id="pricing-title"
        eyebrow="Pricing"
        title="Free to start. Upgrade when you want more."
        lead="Every plan streams the whole catalogue and keeps unlimited playlists. Cancel anytime."
      />
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        {PLANS.map((plan) => (
          <Paper
            key={plan.id}
            p="xl"
            radius="lg"
            withBorder
            bg={plan.id === 'premium' ? 'dark.5' : 'dark.6'}
            style={
              plan.id === 'premium' ? { borderColor: 'var(--mantine-color-ember-5)' } : undefined
            }
          >
            <Stack gap="md">
              <Group justify="space-between">
                <Title order={3} fz="xl">
                  {plan.name}
                </Title>
                {plan.badge ? <Badge variant="light">{plan.badge}</Badge> : null}
              </Group>
              <PlanSummary plan={plan} features={4} />
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
      <Group justify="center" mt={40}>
        <Button component={Link} to="/comparison" size="lg" variant="light">
          Compare all plans
        </Button>
      </Group>
    </Container>
  );
}
