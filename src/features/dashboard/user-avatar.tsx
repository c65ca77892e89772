import { Avatar, type MantineSize } from '@mantine/core';
import { initials } from './use-current-user';
import classes from './user-avatar.module.css';

/**
 * The user's avatar, or generated initials (nothing loaded from outside). Decorative: the name
 * or a label is always next to it, so screen readers skip it. The initials are CSS generated
 * content, a picture like the photo they stand for: as text they would be the visible label of
 * the link around them ('Your profile' in the top bar), which then fails WCAG 2.5.3 (label in
 * name).
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
      <span className={classes.initials} data-initials={initials(name)} />
    </Avatar>
  );
}
