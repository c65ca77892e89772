import { Box, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useRef, useState, type PointerEvent } from 'react';
import { useCurrentTrack } from '../hooks/use-current-track';
import { LikeButton } from './like-button';
import { PlayerErrorNotice } from './player-error-notice';
import { RepeatButton } from './repeat-button';
import { SeekBar } from './seek-bar';
import { NormaliseSwitch } from './normalise-switch';
import { ShuffleButton } from './shuffle-button';
import { TrackCover } from './track-cover';
import { TransportControls } from './transport-controls';
import { VolumeControl } from './volume-control';

/** A downward drag longer than this closes the view (spec section 9). */
export const DRAG_TO_CLOSE_PX = 120;

export interface NowPlayingViewProps {
  opened: boolean;
  onClose: () => void;
  liked?: boolean;
  onToggleLike?: () => void;
}

/** Drags that start on a control belong to the control (sliders, buttons). */
const isControl = (target: EventTarget) =>
  target instanceof Element && target.closest('button, input, a, [role="slider"]') !== null;

/** Full-screen now playing; closes with its close button, Escape, or a downward drag over 120 px. */
export function NowPlayingView({
  opened,
  onClose,
  liked = false,
  onToggleLike,
}: NowPlayingViewProps) {
  const track = useCurrentTrack();
  const startY = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (isControl(event.target) || (event.pointerType === 'mouse' && event.button !== 0)) return;
    startY.current = event.clientY;
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (startY.current !== null) setOffset(Math.max(0, event.clientY - startY.current));
  };
  const endDrag = (event: PointerEvent<HTMLDivElement>, cancelled: boolean) => {
    if (startY.current === null) return;
    const distance = event.clientY - startY.current;
    startY.current = null;
    setOffset(0);
    if (!cancelled && distance > DRAG_TO_CLOSE_PX) onClose();
  };

  return (
    <Modal
      opened={opened && track !== null}
      onClose={onClose}
      fullScreen
      title="Now playing"
      closeButtonProps={{ 'aria-label': 'Close now playing' }}
      // A fade, not Mantine's default fade-down: the view's controls are where they stay from
      // the first frame, so a press as soon as they show lands on them (player.spec at 375 px
      // once clicked 'Close now playing' where the sliding button had just been, under load).
      transitionProps={{ transition: 'fade' }}
    >
      {track && (
        <Box
          data-testid="now-playing-drag-area"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={(event) => endDrag(event, false)}
          onPointerCancel={(event) => endDrag(event, true)}
          // The cover is an <img>: a mouse drag on it would start the browser's own drag and
          // drop, which cancels the pointer after a few pixels and the view never closes.
          onDragStart={(event) => event.preventDefault()}
          style={{
            touchAction: 'none',
            userSelect: 'none',
            transform: offset ? `translateY(${offset}px)` : undefined,
            transition: offset ? 'none' : 'transform 150ms ease',
          }}
        >
          <Stack align="center" gap="lg" maw={480} mx="auto" pt="md">
            <TrackCover track={track} size="min(80vw, 420px)" />
            <Group justify="space-between" w="100%" wrap="nowrap">
              <div style={{ minWidth: 0 }}>
                <Title order={2} size="h3" lineClamp={2}>
                  {track.title}
                </Title>
                <Text c="dimmed" truncate>
                  {track.artist}
                  {track.album ? ` · ${track.album}` : ''}
                </Text>
              </div>
              {onToggleLike && <LikeButton liked={liked} onToggle={onToggleLike} />}
            </Group>
            <SeekBar waveformHeight={48} waveformBars={120} />
            <Group justify="space-between" w="100%" wrap="nowrap">
              <ShuffleButton />
              <TransportControls size="xl" />
              <RepeatButton />
            </Group>
            <VolumeControl />
            <NormaliseSwitch />
            <PlayerErrorNotice />
          </Stack>
        </Box>
      )}
    </Modal>
  );
}
