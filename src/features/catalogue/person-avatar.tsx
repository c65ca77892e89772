import { Avatar, type MantineSize } from '@mantine/core';

export interface PersonAvatarProps {
  /** The uploaded avatar's URL, or null for generated initials. */
  src: string | null | undefined;
  /** The person's (or artist's) name: initials and the placeholder's colours come from it. */
  name: string;
  size?: MantineSize | number;
}

function hue(seed: string): number {
  let h = 0;
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) >>> 0;
  return h % 360;
}

export function initialsOf(name: string): string {
  return (
    name
      .split(/[\s@._-]+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]?.toUpperCase())
      .join('') || '?'
  );
}

/**
 * An avatar, or generated initials on a gradient (nothing loaded from outside; also shown when
 * the image fails to load). Decorative: the name is always written next to it, so alt is empty.
 */
export function PersonAvatar({ src, name, size = 'md' }: PersonAvatarProps) {
  const h = hue(name);
  return (
    <Avatar
      src={src || null}
      alt=""
      radius="50%"
      size={size}
      styles={{
        placeholder: {
          background: `linear-gradient(135deg, hsl(${h} 60% 36%), hsl(${(h + 60) % 360} 65% 20%))`,
          color: '#fff',
          fontWeight: 700,
          fontSize: typeof size === 'number' ? size * 0.36 : undefined,
          letterSpacing: '0.02em',
        },
      }}
    >
      <span aria-hidden>{initialsOf(name)}</span>
    </Avatar>
  );
}
