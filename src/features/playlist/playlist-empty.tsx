import { IconMusicPlus } from '@tabler/icons-react';
import { EmptyState } from '@/components/empty-state';
import { ButtonLink } from '@/components/router-links';

/** 'This playlist is empty. Add some tracks!' (spec 8), with a way to find some. */
export function PlaylistEmpty({ isOwner }: { isOwner: boolean }) {
  return (
    <EmptyState
      icon={<IconMusicPlus size={28} />}
      message="This playlist is empty. Add some tracks!"
      hint={
        isOwner
          ? "Open any track's options menu and choose this playlist to add it here."
          : undefined
      }
      action={
        isOwner ? (
          <ButtonLink to="/explore" variant="light">
            Browse music
          </ButtonLink>
        ) : null
      }
    />
  );
}
