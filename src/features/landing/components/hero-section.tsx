import {
  Badge,
  Box,
  Button,
  Container,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { NowPlayingCard } from './now-playing-card';

export function HeroSection() {
  return (
    <Box
      component="section"
      aria-labelledby="hero-title"
      py={{ base: 48, md: 96 }}
      style={{
        background:
          'radial-gradient(1200px 500px at 85% -10%, rgba(255, 100, 43, 0.22), transparent 60%), radial-gradient(800px 400px at 0% 100%, rgba(120, 80, 255, 0.12), transparent 60%)',
      }}
    >
      <Container size="lg">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} style={{ alignItems: 'center' }}>
          <Stack gap="lg">
            <Badge variant="light" size="lg" radius="sm" w="fit-content">
              Free to start · No credit card
            </Badge>
            <Title
              id="hero-title"
              order={1}
              fz={{ base: 38, sm: 52 }}
              lh={1.05}
              style={{ letterSpacing: '-0.03em' }}
            >
              Music that goes where you go.
            </Title>
            <Text fz={{ base: 'md', sm: 'lg' }} c="gray.3" maw={520}>
              Stream a growing catalogue from independent artists in high fidelity, ad-free on paid
              plans. Build unlimited playlists, follow the lyrics line by line, get recommendations
              that fit, and keep listening offline when the signal drops.
            </Text>
            <Group gap="sm">
              <Button
                component={Link}
                to="/signup"
                size="lg"
                rightSection={<IconArrowRight size={18} aria-hidden />}
              >
                Sign Up Free
              </Button>
              <Button component={Link} to="/comparison" size="lg" variant="default">
                Compare plans
              </Button>
            </Group>
            <Text size="sm" c="dimmed">
              Artists earn 2.10 EUR for every 1,000 plays. 100% of it goes to them.
            </Text>
          </Stack>
          <NowPlayingCard />
        </SimpleGrid>
      </Container>
    </Box>
  );
}
