import {
  Anchor,
  Box,
  Button,
  Container,
  Group,
  List,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { BackToTop } from '@/components/site/back-to-top';
import { PublicPage } from '@/components/site/public-page';
import type { LegalBlock, LegalDocument } from './legal-types';

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' });

function Block({ block }: { block: LegalBlock }) {
  return (
    <>
      {block.paragraphs?.map((p) => (
        <Text key={p} c="gray.3" lh={1.7}>
          {p}
        </Text>
      ))}
      {block.items ? (
        <List spacing={6} c="gray.3" lh={1.6} pl={4}>
          {block.items.map((item) => (
            <List.Item key={item}>{item}</List.Item>
          ))}
        </List>
      ) : null}
    </>
  );
}

/**
 * One layout for every legal page: title, contents, sections, contact, Back to Home / Top;
 * `children` (a page's call to action) under the summary.
 */
export function LegalPage({ doc, children }: { doc: LegalDocument; children?: ReactNode }) {
  return (
    <PublicPage>
      <Container size="md" py={{ base: 40, md: 72 }}>
        <Stack gap="xs" mb="xl">
          <Title order={1} fz={{ base: 32, sm: 44 }} tabIndex={-1} style={{ outline: 'none' }}>
            {doc.title}
          </Title>
          <Text size="sm" c="dimmed">
            Last updated{' '}
            <time dateTime={doc.lastUpdated}>{dateFormat.format(new Date(doc.lastUpdated))}</time>
          </Text>
          <Text c="gray.3" fz="lg">
            {doc.summary}
          </Text>
          {children}
        </Stack>
        <Paper
          component="nav"
          aria-label="On this page"
          p="lg"
          radius="md"
          withBorder
          bg="dark.6"
          mb="xl"
        >
          <Title
            order={2}
            fz="sm"
            tt="uppercase"
            c="gray.4"
            mb="xs"
            style={{ letterSpacing: '0.06em' }}
          >
            On this page
          </Title>
          <List type="ordered" spacing={4} size="sm">
            {doc.sections.map((s) => (
              <List.Item key={s.id}>
                <Anchor href={`#${s.id}`} c="gray.2">
                  {s.heading}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </Paper>
        <Stack gap={40}>
          {doc.sections.map((section) => (
            <Box
              component="section"
              key={section.id}
              id={section.id}
              aria-labelledby={`${section.id}-title`}
            >
              <Stack gap="sm">
                <Title id={`${section.id}-title`} order={2} fz="xl">
                  {section.heading}
                </Title>
                <Block block={section} />
                {section.subsections?.map((sub) => (
                  <Stack key={sub.heading} gap="xs" mt="xs">
                    <Title order={3} fz="md">
                      {sub.heading}
                    </Title>
                    <Block block={sub} />
                  </Stack>
                ))}
              </Stack>
            </Box>
          ))}
        </Stack>
        <Paper p="lg" radius="md" withBorder bg="dark.6" mt={48}>
          <Text c="gray.3">
            Questions about this page? Write to{' '}
            <Anchor href={`mailto:${doc.contact.email}`} underline="always">
              {doc.contact.email}
            </Anchor>
            . We reply within {doc.contact.responseTime}.
          </Text>
        </Paper>
        <Group justify="space-between" mt="xl">
          <Button
            component={Link}
            to="/"
            variant="default"
            leftSection={<IconArrowLeft size={16} aria-hidden />}
          >
            Back to Home
          </Button>
          <BackToTop />
        </Group>
      </Container>
    </PublicPage>
  );
}
