import { Avatar, type MantineSize } from '@mantine/core';
import { initials } from './use-current-user';

/**
 * The user's avatar, or generated initials (nothing loaded from outside). Decorative: the name
 * or a label is always next to it, so screen readers skip it.
 */
export function UserAvatar({
  src,
  name,
  size = 'md',
}: {
  src: string | null;
  name: string;
  size?: MantineSize | number;
}) {
  return (
    <Avatar src={src} alt="" radius="xl" size={size} color="ember" variant="filled" aria-hidden>
      {initials(name)}
    </Avatar>
  );
}
