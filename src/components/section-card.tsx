import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface SectionCardProps<T> {
  /** The section's heading (an h2), also its accessible name. */
  title: string;
  /** Unique on the page: the heading's id. */
  id: string;
  /** undefined while loading: a skeleton labelled 'Loading <title>'. */
  data: T | undefined;
  skeletonHeight?: number;
  /** The sentence shown instead of the content when there is nothing to list, else null. */
  empty?: (data: T) => string | null;
  children: (data: T) => ReactNode;
  /** After the content, also while loading or empty is shown (pagination). */
  footer?: ReactNode;
}

/** A titled panel of a dashboard page (payouts, admin) with its loading and empty states. */
export function SectionCard<T>(props: SectionCardProps<T>) {
  const { title, id, data, skeletonHeight = 80, empty, children, footer } = props;
  const emptyText = data === undefined ? null : (empty?.(data) ?? null);
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      bg="dark.7"
      component="section"
      aria-labelledby={id}
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {data === undefined ? (
          <Skeleton
            h={skeletonHeight}
            role="status"
            aria-label={`Loading ${title.toLowerCase()}`}
          />
        ) : emptyText ? (
          <Text c="dimmed" size="sm">
            {emptyText}
          </Text>
        ) : (
          children(data)
        )}
        {footer}
      </Stack>
    </Paper>
  );
}
