import { Box, Skeleton } from '@mantine/core';
import { useMemo } from 'react';
import { Waveform } from '@/components/waveform';
import { useAllTracks, useWaveform, type Track } from '@/data';
import { toPlayerTrack, toPlayerTracks } from '@/features/catalogue';
import { playerActions, SeekBar, useCurrentTrack } from '@/player';

const HEIGHT = 64;
const BARS = 100;

/**
 * The track's waveform under its actions. While the track plays it is the player's seek bar
 * (the same slider: click, drag, arrow keys); otherwise a drawing that starts the track when
 * clicked (keyboard users have the Play button beside it). Nothing when the track has no peaks.
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
        <SeekBar waveformHeight={HEIGHT} waveformBars={BARS} />
      </Box>
    );
  }
  return (
    <Box
      data-testid="track-waveform"
      style={{ cursor: 'pointer' }}
      onClick={() => playerActions.playFromTrackPage(toPlayerTrack(track), catalogue)}
    >
      <Waveform data={waveform.data} progress={0} bars={BARS} height={HEIGHT} />
    </Box>
  );
}
