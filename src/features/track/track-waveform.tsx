import { Box, Skeleton } from '@mantine/core';
import { Suspense, useMemo, type MouseEvent } from 'react';
import { Waveform } from '@/components/waveform';
import { useAllTracks, type Track } from '@/data';
import { useWaveform } from '@/data/repositories/use-waveform';
import { toPlayerTrack, toPlayerTracks } from '@/features/catalogue';
import { playerActions, useCurrentTrack } from '@/player';
import { lazyChunk } from '@/lib/lazy-chunk';

// The seek bar (Mantine's Slider) only once this track plays: the page's first paint does without.
const SeekBar = lazyChunk(() => import('@/player/ui').then((m) => ({ default: m.SeekBar })));

const HEIGHT = 64;
const BARS = 100;

/**
 * The track's waveform under its actions. While the track plays it is the player's seek bar
 * (the same slider: click, drag, arrow keys); otherwise a drawing that starts the track at the
 * clicked point (keyboard users have the Play button beside it, then the slider's arrow keys).
 * Nothing when the track has no peaks.
 */
export function TrackWaveform({ track }: { track: Track }) {
  const waveform = useWaveform(track.id);
  const current = useCurrentTrack();
  const all = useAllTracks();
  const catalogue = useMemo(() => toPlayerTracks(all), [all]);
  if (waveform === undefined) return <Skeleton height={HEIGHT} radius="sm" aria-hidden />;
  if (!waveform) return null;
  if (current?.id === track.id) {
    return (
      <Box data-testid="track-waveform">
        <Suspense fallback={<Skeleton height={HEIGHT} radius="sm" aria-hidden />}>
          <SeekBar waveformHeight={HEIGHT} waveformBars={BARS} />
        </Suspense>
      </Box>
    );
  }
  // Starts the track where it was clicked (the drawing spans the whole track), as the lyrics do.
  const playFromPoint = (event: MouseEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const fraction = box.width > 0 ? (event.clientX - box.left) / box.width : 0;
    playerActions.playFromTrackPage(toPlayerTrack(track), catalogue);
    playerActions.seek(Math.min(1, Math.max(0, fraction)) * track.duration);
  };
  return (
    <Box data-testid="track-waveform" style={{ cursor: 'pointer' }} onClick={playFromPoint}>
      <Waveform data={waveform.data} progress={0} bars={BARS} height={HEIGHT} />
    </Box>
  );
}
