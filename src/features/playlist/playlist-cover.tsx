import { Box, Image } from '@mantine/core';
import type { Playlist, Track } from '@/data';
import { CoverArt } from '@/features/catalogue';

/**
 * The playlist's cover; without one, a 2×2 mosaic of its first four different track covers,
 * or the first track cover when there are fewer, else the generated placeholder. Decorative
 * (the name is the heading).
 */
export function PlaylistCover({
  playlist,
  tracks,
}: {
  playlist: Playlist;
  tracks: readonly Track[];
}) {
  const covers = [...new Set(tracks.flatMap((t) => (t.coverImage ? [t.coverImage] : [])))].slice(
    0,
    4,
  );
  const size = 'var(--playlist-cover-size)';
  if (playlist.coverImage || covers.length < 4) {
    return (
      <Box style={{ boxShadow: '0 12px 40px rgba(0,0,0,0.5)', borderRadius: 8, flex: 'none' }}>
        <CoverArt
          src={playlist.coverImage ?? covers[0]}
          seed={playlist.id}
          size={size}
          kind="playlist"
          radius="md"
        />
      </Box>
    );
  }
  return (
    <Box
      w={size}
      h={size}
      data-testid="playlist-mosaic"
      style={{
        display: 'grid',
        gridTemplateColumns: '1fr 1fr',
        gridTemplateRows: '1fr 1fr',
        borderRadius: 'var(--mantine-radius-md)',
        overflow: 'hidden',
        flex: 'none',
        boxShadow: '0 12px 40px rgba(0,0,0,0.5)',
      }}
    >
      {covers.map((src, i) => (
        <Image key={`${src}-${i}`} src={src} alt="" w="100%" h="100%" fit="cover" loading="lazy" />
      ))}
    </Box>
  );
}
