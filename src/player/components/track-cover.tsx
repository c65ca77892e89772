import { Center, Image } from '@mantine/core';
import { IconMusic } from '@tabler/icons-react';
import type { PlayerTrack } from '../types';

export interface TrackCoverProps {
  track: PlayerTrack;
  size: number | string;
}

/** The track's cover, or a note icon when it has none. Decorative: the title is next to it. */
export function TrackCover({ track, size }: TrackCoverProps) {
  if (!track.coverImage) {
    return (
      <Center w={size} h={size} bg="dark.5" style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
        <IconMusic aria-hidden size="50%" />
      </Center>
    );
  }
  return <Image src={track.coverImage} alt="" w={size} h={size} radius="sm" fit="cover" />;
}
