import { Stack, Text, Title } from '@mantine/core';

export function SectionHeading({
  id,
  eyebrow,
  title,
  lead,
}: {
  id: string;
  eyebrow: string;
  title: string;
  lead?: string;
}) {
  return (
    <Stack gap="xs" align="center" ta="center" mb={40}>
      <Text tt="uppercase" fw={700} fz="xs" c="ember.4" style={{ letterSpacing: '0.12em' }}>
        {eyebrow}
      </Text>
      <Title id={id} order={2} fz={{ base: 28, sm: 38 }} style={{ letterSpacing: '-0.02em' }}>
        {title}
      </Title>
      {lead ? (
        <Text c="gray.4" maw={640}>
          {lead}
        </Text>
      ) : null}
    </Stack>
  );
}
