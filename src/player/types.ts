/**
 * What the player needs to know about a track. Independent of the data layer: a feature maps its
 * track rows to this shape before handing them to the player's actions.
 */
export interface PlayerTrack {
  id: string;
  title: string;
  artist: string;
  /** Album name; null or '' for a single. */
  album: string | null;
  /** Length in seconds as stored with the track (the audio's own length wins once loaded). */
  duration: number;
  audioUrl: string;
  coverImage: string | null;
  /** Profile id of the uploader: their own listens are never counted. */
  uploadedBy: string;
}

/** Repeat cycles off → all → one → off. */
export type RepeatMode = 'off' | 'all' | 'one';

export const REPEAT_MODES: readonly RepeatMode[] = ['off', 'all', 'one'];

/** Source of randomness in [0, 1), injected so shuffle is testable. */
export type RandomSource = () => number;
