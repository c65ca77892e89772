import { ActionIcon } from '@mantine/core';
import { IconHeart, IconHeartFilled } from '@tabler/icons-react';

export interface LikeButtonProps {
  liked: boolean;
  onToggle: () => void;
}

/** Likes live in the data layer: the caller says whether the track is liked and toggles it. */
export function LikeButton({ liked, onToggle }: LikeButtonProps) {
  const label = liked ? 'Remove from likes' : 'Save to likes';
  return (
    <ActionIcon
      variant="subtle"
      color={liked ? undefined : 'gray'}
      aria-label={label}
      title={label}
      aria-pressed={liked}
      onClick={onToggle}
    >
      {liked ? <IconHeartFilled aria-hidden size="70%" /> : <IconHeart aria-hidden size="70%" />}
    </ActionIcon>
  );
}
