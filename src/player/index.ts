/** The player's public surface for features and the app shell (its on-demand UI: ./ui.ts). */
export * as playerActions from './actions';
export { onListenQualified, type ListenQualified } from './listens';
export { playlistStart, relatedTracks } from './queue';
export { prepareAudio, startPlayer, type StartPlayerOptions } from './start-player';
export { pressToPrime, type PressTarget, type PressToPrimeProps } from './press-to-prime';
export { DEFAULT_VOLUME } from './store';
export type { PlayerTrack, RepeatMode } from './types';
export { useCurrentTrack } from './hooks/use-current-track';
export { useIsPlaying } from './hooks/use-is-playing';
export { useIsPlayingFrom } from './hooks/use-is-playing-from';
export { usePlaybackProgress } from './hooks/use-playback-progress';
export { KeyboardShortcuts, type KeyboardShortcutsProps } from './components/keyboard-shortcuts';
export { toggleStems } from './stems';
export { useStems } from './hooks/use-stems';
export { NotDownloadedError } from './offline';
