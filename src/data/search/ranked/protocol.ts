/**
 * The messages between the page and the search worker (docs/search.md, "In a Web Worker").
 * Both sides are structured-cloned: plain objects, arrays, sets.
 */
import type { Track } from '../../db/models';
import type { DocSources } from './docs';
import type { RankedAnswer } from './engine';

export type ToSearchWorker =
  /** Rank `query`; the answer carries `seq` back. `suggest`: also look for a correction. */
  | { type: 'search'; seq: number; query: string; limit: number; suggest: boolean }
  /** The listener's likes and follows (a small boost), sent when they change. */
  | { type: 'personal'; likedTrackIds: string[]; followedIds: string[] }
  /** The server's tracks for a text: those the index lacks join it. */
  | { type: 'addTracks'; tracks: Track[] }
  /** Index these sources instead of reading the mirror (the bench, tests). */
  | { type: 'sources'; sources: DocSources };

export interface WorkerAnswer extends RankedAnswer {
  /** "Did you mean …?": set when asked for and nothing, or only part of the words, matched. */
  suggestion: string | null;
  /**
   * The first build is still running: these hits come from the part indexed so far (the most
   * played) and the server's rows.
   */
  preparing: boolean;
}

export type FromSearchWorker =
  | {
      type: 'answer';
      seq: number;
      answer: WorkerAnswer;
      /** Time spent ranking in the worker. */
      ms: number;
    }
  /** The index changed (built, synced with the mirror, server rows added): ask again. */
  | {
      type: 'indexed';
      version: number;
      documents: number;
      ms: number;
      /** The first build has finished (false: a chunk of it was indexed). */
      ready: boolean;
    };
