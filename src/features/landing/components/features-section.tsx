import { Container, Paper, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconBolt,
  IconCloudDownload,
  IconCoin,
  IconHeadphones,
  IconMicrophone2,
  IconPlaylist,
  IconSparkles,
  IconVolume,
  type Icon,
} from '@tabler/icons-react';
import { PAYOUT } from '@/lib/constants';
import { SectionHeading } from './section-heading';

const FEATURES: { icon: Icon; title: string; text: string }[] = [
  {
    icon: IconCloudDownload,
    title: 'Offline listening that works',
    text: 'Premium downloads live on your device and play on a plane, in a tunnel or with no signal at all. Plays you make offline still count for the artist when you reconnect.',
  },
  {
    icon: IconBolt,
    title: 'Starts instantly, survives the lock screen',
    text: 'Playback streams right away instead of waiting for a whole file, and play, pause and skip work from your lock screen, headphones and keyboard.',
  },
  {
    icon: IconMicrophone2,
    title: 'Synced lyrics',
    text: 'Follow every line as it is sung. Artists write and time their own lyrics in the lyrics studio.',
  },
  {
    icon: IconCoin,
    title: 'Honest per-play earnings',
    text: `Artists earn ${PAYOUT.ratePer1000PlaysEur} EUR per 1,000 plays with no platform fee, and can see every counted play. Withdraw from ${PAYOUT.minimumWithdrawalEur} EUR by PayPal or bank transfer.`,
  },
  {
    icon: IconHeadphones,
    title: 'High fidelity',
    text: 'High quality 320 kbps on Basic and lossless on Premium: you hear the master the artist uploaded.',
  },
  {
    icon: IconVolume,
    title: 'Ad-free on paid plans',
    text: 'Basic and Premium have no ads at all. On Free, the occasional promotion keeps music free for everyone.',
  },
  {
    icon: IconPlaylist,
    title: 'Unlimited playlists',
    text: 'Collect, order and share as many playlists as you like, and feature your favourite on your profile.',
  },
  {
    icon: IconSparkles,
    title: 'Recommendations that fit',
    text: 'Suggestions built from what you actually play, plus what the friends you follow are listening to.',
  },
];

export function FeaturesSection() {
  return (
    <Container
      component="section"
      id="features"
      tabIndex={-1}
      aria-labelledby="features-title"
      size="lg"
      py={{ base: 56, md: 88 }}
    >
      <SectionHeading
        id="features-title"
        eyebrow="Features"
        title="Everything the other players get wrong, done right"
        lead="Soundloft was built around the complaints listeners and artists have about every music service: offline mode, playback, lyrics and pay."
      />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
        {FEATURES.map(({ icon: FeatureIcon, title, text }) => (
          <Paper key={title} p="lg" radius="lg" bg="dark.6" withBorder>
            <ThemeIcon size={44} radius="md" variant="light" mb="md">
              <FeatureIcon size={24} aria-hidden />
            </ThemeIcon>
            <Title order={3} fz="lg" mb={6}>
              {title}
            </Title>
            <Text size="sm" c="gray.4">
              {text}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
    </Container>
  );
}
