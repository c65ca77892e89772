/**
 * The job queues of a node that does not work them (SOUNDLOFT_ROLE=web): nothing is claimed,
 * nothing swept; `kick()` is a no-op (the workers poll), `idle()` has nothing of its own to wait
 * for, `close()` nothing to stop, `handBack()` nothing to hand back.
 */
import type { JobLoop } from '../lib/job-loop';

/** Takes (and ignores) the options of startTrackProcessing / startStemJobs. */
export function notOnThisNode(_options?: unknown): JobLoop {
  return {
    kick: () => undefined,
    idle: async () => undefined,
    close: async () => undefined,
    handBack: async () => 0,
  };
}
