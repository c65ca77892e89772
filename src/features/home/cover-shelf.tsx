import { Skeleton } from '@mantine/core';
import type { ReactNode } from 'react';

interface CoverShelfProps<T> {
  items: readonly T[];
  /** Grid width on a wide screen (8 for tracks, 5 for playlists). */
  wide: 5 | 8;
  label: string;
  itemKey: (item: T) => string;
  render: (item: T) => ReactNode;
}

/** A row of cover cards: a grid on wide screens, a sideways-scrolling shelf on phones. */
export function CoverShelf<T>({ items, wide, label, itemKey, render }: CoverShelfProps<T>) {
  return (
    <div className="home-shelf-wrap">
      <ul className="home-shelf" data-wide={wide} aria-label={label}>
        {items.map((item) => (
          <li key={itemKey(item)}>{render(item)}</li>
        ))}
      </ul>
    </div>
  );
}

/** The shelf while the mirror loads. */
export function CoverShelfSkeleton({ wide, count = wide }: { wide: 5 | 8; count?: number }) {
  return (
    <div className="home-shelf-wrap" aria-hidden>
      <div className="home-shelf" data-wide={wide}>
        {Array.from({ length: count }, (_, i) => (
          <div key={i} style={{ minWidth: 0 }} className="home-shelf-skeleton">
            <Skeleton radius="md" style={{ aspectRatio: '1' }} />
            <Skeleton h={12} mt="xs" w="80%" />
            <Skeleton h={10} mt={6} w="50%" />
          </div>
        ))}
      </div>
    </div>
  );
}
