import { Container, Stack, Text, Title } from '@mantine/core';
import { PublicPage } from '@/components/site/public-page';
import { ComingSoon } from './components/coming-soon';
import { ReleaseCard } from './components/release-card';
import { StayUpdated } from './components/stay-updated';
import { RELEASES } from './changelog-data';

export function ChangelogPage() {
  return (
    <PublicPage>
      <Container size="md" py={{ base: 40, md: 72 }}>
        <Stack gap="xs" mb="xl">
          <Title order={1} fz={{ base: 32, sm: 44 }}>
            Platform Updates
          </Title>
          <Text c="gray.4">What is new in Soundloft, release by release.</Text>
        </Stack>
        <Stack gap="xl">
          {RELEASES.map((release) => (
            <ReleaseCard key={release.version} release={release} />
          ))}
          <ComingSoon />
          <StayUpdated />
        </Stack>
      </Container>
    </PublicPage>
  );
}
