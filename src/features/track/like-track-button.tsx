import { Button } from '@mantine/core';
import { IconHeart, IconHeartFilled } from '@tabler/icons-react';
import { getRepositories, useLikedTrackIds } from '@/data';
import { toast } from '@/components/toast';
import { useCurrentUserId } from '@/features/catalogue';

/** 'Save to likes' / 'Added to likes' (spec 2); liking a liked track removes the like. */
export function LikeTrackButton({ trackId }: { trackId: string }) {
  const userId = useCurrentUserId();
  const liked = useLikedTrackIds(userId).includes(trackId);
  return (
    <Button
      variant={liked ? 'light' : 'default'}
      radius="xl"
      aria-pressed={liked}
      leftSection={
        liked ? <IconHeartFilled size={16} aria-hidden /> : <IconHeart size={16} aria-hidden />
      }
      onClick={() => {
        getRepositories()
          .likes.toggle(trackId)
          .catch((error: unknown) => {
            console.error(error);
            toast.error(liked ? 'Failed to unlike track' : 'Failed to like track');
          });
      }}
    >
      {liked ? 'Added to likes' : 'Save to likes'}
    </Button>
  );
}
