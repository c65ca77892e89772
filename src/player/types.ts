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
  /**
   * The renditions the track has (docs/upload.md): the player asks the server for the best one
   * the listener's plan allows. [] for a row made before the pipeline; absent when unknown.
   */
  qualities?: readonly AudioQuality[];
  /** Integrated loudness (LUFS) and true peak (dBTP) measured by the server, for normalisation. */
  loudnessLufs?: number | null;
  truePeakDb?: number | null;
}

export type AudioQuality = 'standard' | 'high' | 'lossless';

/** Repeat cycles off → all → one → off. */
export type RepeatMode = 'off' | 'all' | 'one';

export const REPEAT_MODES: readonly RepeatMode[] = ['off', 'all', 'one'];

/** Source of randomness in [0, 1), injected so shuffle is testable. */
export type RandomSource = () => number;
