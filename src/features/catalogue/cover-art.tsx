import { Box, Image } from '@mantine/core';
import { IconMusic, IconPlaylist } from '@tabler/icons-react';

export interface CoverArtProps {
  /** The image URL, or null for the generated placeholder. */
  src: string | null | undefined;
  /** Seeds the placeholder's colours so each track or playlist keeps its own. */
  seed: string;
  size: number | string;
  kind?: 'track' | 'playlist';
  radius?: string;
}

function hue(seed: string): number {
  let h = 0;
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) >>> 0;
  return h % 360;
}

/**
 * A cover image, or a generated gradient placeholder (nothing loaded from outside). Decorative:
 * the title is always written next to it, so alt is empty.
 */
export function CoverArt({ src, seed, size, kind = 'track', radius = 'sm' }: CoverArtProps) {
  if (src) {
    return <Image src={src} alt="" w={size} h={size} radius={radius} fit="cover" loading="lazy" />;
  }
  const h = hue(seed);
  const Icon = kind === 'playlist' ? IconPlaylist : IconMusic;
  return (
    <Box
      w={size}
      h={size}
      style={{
        borderRadius: `var(--mantine-radius-${radius})`,
        background: `linear-gradient(135deg, hsl(${h} 55% 38%), hsl(${(h + 50) % 360} 60% 22%))`,
        display: 'grid',
        placeItems: 'center',
        flex: 'none',
      }}
    >
      <Icon aria-hidden size="45%" color="rgba(255,255,255,0.85)" />
    </Box>
  );
}
