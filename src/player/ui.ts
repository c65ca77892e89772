/**
 * The player's UI that the first paint of a signed-in page does not need: the bar shows only
 * with a current track (the stems controls are in it), the seek bar on a track page only while
 * that track plays. Kept out of
 * `@/player` (which every signed-in page loads with the layout) so that their code, Mantine's
 * Slider with it, is fetched when they are shown (docs/architecture.md, "Session 10").
 */
export { PlayerBar, type PlayerBarProps } from './components/player-bar';
export { SeekBar, type SeekBarProps } from './components/seek-bar';
export { AutoplaySwitch, NormaliseSwitch } from './components/normalise-switch';
