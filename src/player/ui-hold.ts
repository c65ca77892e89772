/**
 * Audio first, then the picture (docs/player.md, "Audio first"). While a sound the listener asked
 * for is starting, the player's views hold their re-render: the media element's own steps (its
 * load, the service worker's answer, the demuxer's callbacks, the start) run on the main thread
 * too, and React's render of the bar and the rows with the style, layout and paint after it took
 * 25-60 ms there on this machine before the first sound. The engine holds the views from the
 * play to the sound's clock moving (or its failure), at most HOLD_MS; then they draw the store as
 * it is.
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

/** Runs `draw` now, or once the current hold ends. */
export function whenViewsMayDraw(draw: () => void): void {
  if (held) void held.done.then(draw);
  else draw();
}
