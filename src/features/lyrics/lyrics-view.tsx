import { Box, Button, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useId, useMemo, useRef, useState } from 'react';
import { useAllTracks, type LyricLine, type Track } from '@/data';
import { toPlayerTrack, toPlayerTracks } from '@/features/catalogue';
import { formatTime } from '@/lib/format-time';
import { currentLineIndex } from '@/lib/lyrics-time';
import { playerActions, useCurrentTrack, useIsPlaying, usePlaybackProgress } from '@/player';
import classes from './lyrics.module.css';
import { useAutoFollow } from './use-auto-follow';
import { useOverflow } from './use-overflow';

/** Spec 4: collapsed at 320 px, expandable up to 720 px when the lines need more. */
export const COLLAPSED_HEIGHT = 320;
export const EXPANDED_HEIGHT = 720;

export interface LyricsViewProps {
  track: Track;
  lines: readonly LyricLine[];
  /** Synced lyrics highlight and follow the current line, and a click seeks to a line. */
  synced: boolean;
}

/** View mode: the lines, the current one highlighted and centred while this track plays. */
export function LyricsView({ track, lines, synced }: LyricsViewProps) {
  const panelId = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const [expanded, setExpanded] = useState(false);
  const overflows = useOverflow(listRef, COLLAPSED_HEIGHT);

  const current = useCurrentTrack();
  const playing = useIsPlaying();
  const { currentTime } = usePlaybackProgress();
  const isCurrent = current?.id === track.id;
  const active = synced && isCurrent ? currentLineIndex(lines, currentTime) : -1;
  useAutoFollow(boxRef, active, synced && isCurrent, expanded);

  const all = useAllTracks();
  const catalogue = useMemo(() => toPlayerTracks(all), [all]);
  const seekTo = (seconds: number) => {
    if (!isCurrent) playerActions.playFromTrackPage(toPlayerTrack(track), catalogue);
    else if (!playing) playerActions.play();
    playerActions.seek(seconds);
  };

  return (
    <div>
      <Box
        ref={boxRef}
        id={panelId}
        className={classes.panel}
        data-collapsed={overflows && !expanded ? 'true' : undefined}
        style={{ maxHeight: expanded ? EXPANDED_HEIGHT : COLLAPSED_HEIGHT }}
        tabIndex={synced ? undefined : 0}
        role={synced ? undefined : 'region'}
        aria-label={synced ? undefined : `Lyrics of ${track.title}`}
      >
        <ol ref={listRef} className={classes.lines} aria-label={`Lyrics of ${track.title}`}>
          {lines.map((line, index) => {
            const state = index === active ? 'current' : index < active ? 'past' : 'upcoming';
            const content = (
              <>
                <span className={classes.text}>{line.text}</span>
                {line.annotation ? (
                  <Text component="span" size="sm" c="dimmed" className={classes.annotation}>
                    {line.annotation}
                  </Text>
                ) : null}
              </>
            );
            return (
              <li
                key={line.id}
                data-line-index={index}
                data-state={isCurrent && synced ? state : undefined}
                aria-current={index === active ? 'true' : undefined}
                className={classes.line}
              >
                {synced ? (
                  <UnstyledButton
                    className={classes.lineButton}
                    onClick={() => seekTo(line.timestamp)}
                  >
                    {content}
                    <VisuallyHidden>, play from {formatTime(line.timestamp)}</VisuallyHidden>
                  </UnstyledButton>
                ) : (
                  <div className={classes.lineButton}>{content}</div>
                )}
              </li>
            );
          })}
        </ol>
      </Box>
      {overflows ? (
        <Button
          variant="subtle"
          color="gray"
          size="compact-sm"
          mt="xs"
          aria-expanded={expanded}
          aria-controls={panelId}
          rightSection={
            expanded ? (
              <IconChevronUp size={14} aria-hidden />
            ) : (
              <IconChevronDown size={14} aria-hidden />
            )
          }
          onClick={() => setExpanded((value) => !value)}
        >
          {expanded ? 'Show less' : 'Show more'}
        </Button>
      ) : null}
    </div>
  );
}
