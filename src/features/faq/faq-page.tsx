import {
  Accordion,
  Anchor,
  Container,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { PublicPage } from '@/components/site/public-page';
import { SUPPORT_EMAIL } from '@/lib/constants';
import { FAQ_ENTRIES } from './faq-data';
import type { FaqCategory } from './faq-types';

type Filter = 'all' | FaqCategory;

const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'general', label: 'General' },
  { value: 'music', label: 'Music' },
  { value: 'payouts', label: 'Payouts' },
  { value: 'account', label: 'Account' },
];

export function FaqPage() {
  const [filter, setFilter] = useState<Filter>('all');
  const entries = filter === 'all' ? FAQ_ENTRIES : FAQ_ENTRIES.filter((e) => e.category === filter);

  return (
    <PublicPage>
      <Container size="md" py={{ base: 40, md: 72 }}>
        <Stack gap="xs" mb="xl">
          <Title order={1} fz={{ base: 32, sm: 44 }}>
            Frequently Asked Questions
          </Title>
          <Text c="gray.4">Plans, music, payouts and your account, answered.</Text>
        </Stack>
        <SegmentedControl
          aria-label="Filter questions by category"
          value={filter}
          onChange={(v) => setFilter(v as Filter)}
          data={FILTERS}
          fullWidth
          mb="lg"
        />
        <Text size="sm" c="dimmed" mb="sm" aria-live="polite">
          {entries.length} {entries.length === 1 ? 'question' : 'questions'}
        </Text>
        <Accordion variant="separated" radius="md" multiple={false}>
          {entries.map((entry) => (
            <Accordion.Item key={entry.id} value={entry.id}>
              <Accordion.Control>
                <Text component="span" fw={600}>
                  {entry.question}
                </Text>
              </Accordion.Control>
              <Accordion.Panel>
                <Text c="gray.3">{entry.answer}</Text>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
        <Paper mt="xl" p="lg" radius="md" withBorder bg="dark.6">
          <Title order={2} fz="lg" mb={4}>
            Still have questions?
          </Title>
          <Text c="gray.4" size="sm">
            Our support team answers within one business day.{' '}
            <Anchor href={`mailto:${SUPPORT_EMAIL}`} underline="always">
              Contact support
            </Anchor>
          </Text>
        </Paper>
      </Container>
    </PublicPage>
  );
}
