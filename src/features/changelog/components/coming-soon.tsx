import { Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { COMING_SOON } from '../changelog-data';

export function ComingSoon() {
  return (
    <section aria-labelledby="coming-soon-title">
      <Title id="coming-soon-title" order={2} fz="xl" mb="md">
        Coming Soon
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        {COMING_SOON.map((item) => (
          <Paper key={item.title} p="lg" radius="md" withBorder bg="dark.6">
            <Title order={3} fz="md" mb={4}>
              {item.title}
            </Title>
            <Text size="sm" c="gray.4">
              {item.description}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
    </section>
  );
}
