/**
 * Audio first, then the picture (docs/player.md, "Audio first"). While a sound the listener asked
 * for is starting, the player's views hold their re-render: the media element's own steps (its
 * load, the service worker's answer, the demuxer's callbacks, the start) run on the main thread
 * too, and React's render of the bar and the rows with the style, layout and paint after it took
 * 25-60 ms there on this machine before the first sound. The engine holds the views from the
 * play to the sound's clock moving (or its failure), at most HOLD_MS; then they draw the store as
 * it is, in a React transition: rendered in slices of a few milliseconds, between which the
 * element's tasks (and the first sound's) still run.
 */
const HOLD_MS = 150;

let held: { done: Promise<void>; release: () => void } | null = null;

/** Holds the player's views until the returned function is called, or HOLD_MS at most. */
export function holdPlayerViews(maxMs = HOLD_MS): () => void {
  if (held) return held.release;
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  const timer = setTimeout(() => release(), maxMs);
  const hold = {
    done,
    release: () => {
      clearTimeout(timer);
      if (held === hold) held = null;
      release();
    },
  };
  held = hold;
  return hold.release;
}

/**
 * Runs `draw` now, or once the current hold ends; `released` tells it which (the views then draw
 * as a non-blocking update, use-player-value.ts).
 */
export function whenViewsMayDraw(draw: (released: boolean) => void): void {
  if (held) void held.done.then(() => draw(true));
  else draw(false);
}

/** Sounds starting: from their play() to the page's first idle moment after their clock moved. */
let starting = 0;
let afterStart: (() => void)[] = [];

/**
 * A sound the listener asked for is starting: work that can wait (emptying a replaced element,
 * whose teardown runs on the main thread) waits until the returned function is called, or
 * `maxMs` at most.
 */
export function markSoundStarting(maxMs = 3000): () => void {
  starting += 1;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    starting -= 1;
    if (starting > 0) return;
    const tasks = afterStart;
    afterStart = [];
    for (const task of tasks) task();
  };
  const timer = setTimeout(end, maxMs);
  return end;
}

/** Runs `task` now, or once no sound is starting (markSoundStarting). */
export function afterSoundsStart(task: () => void): void {
  if (starting === 0) task();
  else afterStart.push(task);
}
