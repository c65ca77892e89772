import { Anchor, Container, Group, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconArrowUpRight } from '@tabler/icons-react';

const PRODUCT_HUNT_URL = 'https://www.producthunt.com/products/soundloft';

export function ProductHuntSection() {
  return (
    <Container
      component="section"
      aria-labelledby="product-hunt-title"
      size="md"
      py={{ base: 40, md: 64 }}
    >
      <Paper p="xl" radius="lg" withBorder bg="dark.6">
        <Group justify="space-between" gap="lg">
          <Stack gap={6} maw={460}>
            <Title id="product-hunt-title" order={2} fz="xl">
              Support us on Product Hunt
            </Title>
            <Text c="gray.4" size="sm">
              Soundloft is built by a small team. If you like what we are doing for listeners and
              artists, an upvote and a review help more people find us.
            </Text>
          </Stack>
          <Anchor
            href={PRODUCT_HUNT_URL}
            target="_blank"
            rel="noopener noreferrer"
            underline="never"
          >
            <Group
              gap="sm"
              px="lg"
              py="sm"
              wrap="nowrap"
              style={{ borderRadius: 12, border: '1px solid #da552f', background: '#fff' }}
            >
              <svg width="32" height="32" viewBox="0 0 40 40" aria-hidden focusable="false">
                <circle cx="20" cy="20" r="20" fill="#da552f" />
                <path
                  d="M22.7 20H17v-6h5.7a3 3 0 0 1 0 6zm0-10H13v20h4v-6h5.7a7 7 0 0 0 0-14z"
                  fill="#fff"
                />
              </svg>
              <Stack gap={0}>
                <Text size="xs" c="#4b587c" fw={600} tt="uppercase">
                  Find us on
                </Text>
                <Group gap={4} wrap="nowrap">
                  <Text c="#4b587c" fw={800}>
                    Product Hunt
                  </Text>
                  <IconArrowUpRight size={16} color="#4b587c" aria-hidden />
                  <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
                </Group>
              </Stack>
            </Group>
          </Anchor>
        </Group>
      </Paper>
    </Container>
  );
}
