import { Container, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { PAYOUT } from '@/lib/constants';
import { SectionHeading } from './section-heading';

const FACTS = [
  { value: `${PAYOUT.ratePer1000PlaysEur} EUR`, label: 'paid to the artist per 1,000 plays' },
  { value: `${100 - PAYOUT.platformFeePercent}%`, label: 'of play earnings go to the artist' },
  { value: `${PAYOUT.minimumWithdrawalEur} EUR`, label: 'minimum withdrawal, by PayPal or bank' },
];

export function MissionSection() {
  return (
    <Container
      component="section"
      id="about"
      tabIndex={-1}
      aria-labelledby="about-title"
      size="lg"
      py={{ base: 56, md: 88 }}
    >
      <SectionHeading
        id="about-title"
        eyebrow="About"
        title="Our mission: fair music, everywhere"
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48}>
        <Stack gap="md">
          <Text c="gray.3">
            Soundloft is a streaming service and a home for independent artists. We believe a
            listener should be able to press play and hear music at once, on any connection, and
            that an artist should know exactly what every play is worth.
          </Text>
          <Text c="gray.3">
            So we publish our rate, count plays the same way for everyone (once per listener, track
            and session, after 30 seconds or the whole track if it is shorter, never the artist's
            own), and pay all of it out. Artists keep ownership of their music and can leave at any
            time.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
          {FACTS.map((fact) => (
            <Stack key={fact.label} gap={4} p="md" bg="dark.6" style={{ borderRadius: 12 }}>
              <Title order={3} fz={28} c="ember.4">
                {fact.value}
              </Title>
              <Text size="sm" c="gray.4">
                {fact.label}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
      </SimpleGrid>
    </Container>
  );
}
