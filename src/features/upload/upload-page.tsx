import { Alert, Button, Container, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconUpload } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import type { FormEvent, ReactNode } from 'react';
import { uploadsThisMonth, useProfileOrLoading } from '@/data';
import { useCurrentUserId } from '@/features/catalogue';
import { AudioDropZone } from './components/audio-drop-zone';
import { CoverPicker } from './components/cover-picker';
import { TrackDetailsFields } from './components/track-details-fields';
import { UploadLimitsPanel } from './components/upload-limits-panel';
import { UploadProgress } from './components/upload-progress';
import { UploadSuccess } from './components/upload-success';
import { ButtonLink } from '@/components/router-links';
import { UpgradeOffer } from '@/features/catalogue/upgrade-offer';
import { SuspendedNotice } from '@/features/catalogue/suspended-notice';
import { audioMimeOf, canSubmit, cleanDetails, LIMIT_REACHED, uploadLimits } from './upload-rules';
import { useUploadFlow } from './use-upload-flow';
import { useUploadForm } from './use-upload-form';

function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Paper
      component="section"
      p={{ base: 'md', sm: 'lg' }}
      radius="md"
      withBorder
      aria-labelledby={id}
    >
      <Stack gap="md">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** /upload (spec 2, 4, 5; issue 14): the artist studio's way in. */
export function UploadPage() {
  const navigate = useNavigate();
  const userId = useCurrentUserId();
  const profile = useProfileOrLoading(userId);
  const form = useUploadForm(profile?.name ?? null);
  const flow = useUploadFlow();
  const limits = profile ? uploadLimits(profile.subscriptionPlan, uploadsThisMonth(profile)) : null;
  const atLimit = limits?.atLimit ?? false;
  const enabled =
    Boolean(userId) &&
    canSubmit({
      hasAudio: Boolean(form.audio) && !form.reading,
      details: form.details,
      busy: flow.busy,
      atLimit,
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate() || !userId || !form.audio || atLimit || flow.busy) return;
    void flow.start({
      userId,
      audio: form.audio.file,
      contentType: audioMimeOf(form.audio.file) ?? 'audio/mpeg',
      cover: form.cover,
      details: cleanDetails(form.details),
    });
  };

  const another = () => {
    flow.reset();
    form.clear();
  };

  const title = form.details.title.trim();
  /** The upload was refused at the monthly limit: the form's alert says so, with the way on. */
  const refusedAtLimit = flow.error === LIMIT_REACHED;
  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="lg">
        <div>
          <Title order={1}>Upload Track</Title>
          <Text c="gray.4" size="sm">
            Share your music: we check the file, draw its waveform, even out its loudness and make a
            streaming version for every plan.
          </Text>
        </div>
        <SuspendedNotice userId={userId ?? null} own />
        {flow.phase.kind === 'success' ? (
          <UploadSuccess title={title} onAnother={another} />
        ) : (
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 2, md: 1 }}>
              <form onSubmit={submit} noValidate aria-label="Upload track">
                <Stack gap="lg">
                  {flow.error && (
                    <Alert
                      color="red"
                      variant="light"
                      icon={<IconAlertCircle size={18} aria-hidden />}
                      role="alert"
                      title="Upload failed"
                    >
                      <Stack gap="xs" align="flex-start">
                        <Text size="sm">{flow.error}</Text>
                        {refusedAtLimit && (
                          <UpgradeOffer>
                            <ButtonLink to="/subscription" size="xs" radius="xl">
                              View plans
                            </ButtonLink>
                          </UpgradeOffer>
                        )}
                      </Stack>
                    </Alert>
                  )}
                  {flow.busy && <UploadProgress phase={flow.phase} title={title} />}
                  <Section title="Audio File" id="upload-audio-title">
                    <AudioDropZone
                      picked={form.audio}
                      reading={form.reading}
                      error={form.audioError}
                      disabled={flow.busy}
                      onPick={(file) => void form.pickAudio(file)}
                    />
                  </Section>
                  <Section title="Track Details" id="upload-details-title">
                    <TrackDetailsFields
                      values={form.details}
                      errors={form.errors}
                      disabled={flow.busy}
                      onChange={form.change}
                    />
                  </Section>
                  <Section title="Cover Image (optional)" id="upload-cover-title">
                    <CoverPicker
                      cover={form.cover}
                      fromTags={form.coverFromTags}
                      error={form.coverError}
                      disabled={flow.busy}
                      onPick={form.pickCover}
                      onRemove={form.removeCover}
                    />
                  </Section>
                  <Group justify="flex-end" gap="sm">
                    <Button
                      variant="default"
                      radius="xl"
                      onClick={() => {
                        flow.cancel();
                        void navigate({ to: '/library' });
                      }}
                    >
                      Cancel
                    </Button>
                    <Button
                      type="submit"
                      radius="xl"
                      disabled={!enabled}
                      loading={flow.busy}
                      leftSection={<IconUpload size={16} aria-hidden />}
                    >
                      Upload Track
                    </Button>
                  </Group>
                </Stack>
              </form>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 1, md: 2 }}>
              <UploadLimitsPanel limits={limits} messageInForm={refusedAtLimit} />
            </Grid.Col>
          </Grid>
        )}
      </Stack>
    </Container>
  );
}
