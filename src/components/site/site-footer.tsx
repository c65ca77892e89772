import {
  Anchor,
  Box,
  Container,
  Divider,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { Logo } from './logo';

type FooterTo =
  | '/comparison'
  | '/faq'
  | '/changelog'
  | '/community'
  | '/terms-of-service'
  | '/privacy-policy'
  | '/copyright-policy'
  | '/cookie-policy'
  | '/music-licensing'
  | '/accessibility-statement';

const COLUMNS: { heading: string; links: { label: string; to: FooterTo }[] }[] = [
  {
    heading: 'Product',
    links: [
      { label: 'Compare plans', to: '/comparison' },
      { label: 'FAQ', to: '/faq' },
      { label: 'Platform updates', to: '/changelog' },
    ],
  },
  {
    heading: 'Community',
    links: [
      { label: 'Community Guidelines', to: '/community' },
      { label: 'Music Licensing', to: '/music-licensing' },
      { label: 'Accessibility', to: '/accessibility-statement' },
    ],
  },
  {
    heading: 'Legal',
    links: [
      { label: 'Terms of Service', to: '/terms-of-service' },
      { label: 'Privacy Policy', to: '/privacy-policy' },
      { label: 'Copyright Policy', to: '/copyright-policy' },
      { label: 'Cookie Policy', to: '/cookie-policy' },
    ],
  },
];

export function SiteFooter() {
  return (
    <Box
      component="footer"
      mt="xl"
      py="xl"
      bg="dark.8"
      style={{ borderTop: '1px solid var(--mantine-color-dark-5)' }}
    >
      <Container size="lg">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xl">
          <Stack gap="sm">
            <Logo />
            <Text size="sm" c="dimmed" maw={260}>
              Music that goes where you go. Artists earn 2.10 EUR per 1,000 plays, with no platform
              fee.
            </Text>
          </Stack>
          {COLUMNS.map((col) => (
            <Stack key={col.heading} gap="xs" component="nav" aria-label={col.heading}>
              <Title
                order={2}
                fz="sm"
                tt="uppercase"
                c="gray.4"
                style={{ letterSpacing: '0.06em' }}
              >
                {col.heading}
              </Title>
              {col.links.map((link) => (
                <Anchor key={link.to} component={Link} to={link.to} c="gray.3" size="sm">
                  {link.label}
                </Anchor>
              ))}
            </Stack>
          ))}
        </SimpleGrid>
        <Divider my="lg" color="dark.5" />
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            © {new Date().getFullYear()} Soundloft. Artists keep ownership of their music.
          </Text>
          <Text size="xs" c="dimmed">
            Made for listeners and the artists they love.
          </Text>
        </Group>
      </Container>
    </Box>
  );
}
