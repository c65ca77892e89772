/**
 * Stems of the current track (spec section 4; docs/stems.md): the request toggles — if stems
 * exist they are cleared, otherwise loading, then the stems or 'Failed to separate stems'. The
 * URLs live in `playerState.stems` (setting a track clears them); this holds the request's state
 * and the mix (per-stem volume, mute, solo) the engine applies.
 */
import { proxy } from 'valtio';
import {
  FAILED_TO_SEPARATE_STEMS,
  STEM_NAMES,
  separateStems,
  type StemName,
} from '@/data/remote/stems-remote';
import { setStems } from './actions';
import { playerState } from './store';

export { STEM_NAMES, type StemName };

export interface StemChannel {
  /** 0..1. */
  volume: number;
  muted: boolean;
  solo: boolean;
}

export interface StemsState {
  /** The track the request is for (a new track makes it stale). */
  trackId: string | null;
  status: 'off' | 'loading' | 'on' | 'error';
  /** 0..1 while the server separates, null before it says. */
  progress: number | null;
  error: string | null;
  mix: Record<StemName, StemChannel>;
  /** Stem sources the engine has playing (0 while paused). */
  playingSources: number;
}

const freshMix = (): Record<StemName, StemChannel> =>
  Object.fromEntries(
    STEM_NAMES.map((name) => [name, { volume: 1, muted: false, solo: false }]),
  ) as Record<StemName, StemChannel>;

export const stemsState = proxy<StemsState>({
  trackId: null,
  status: 'off',
  progress: null,
  error: null,
  mix: freshMix(),
  playingSources: 0,
});

let pending: AbortController | null = null;

/** Each stem's gain: its volume, silenced when muted or when another stem is soloed. */
export function stemGains(mix: Record<StemName, StemChannel>): number[] {
  const soloing = STEM_NAMES.some((name) => mix[name].solo);
  return STEM_NAMES.map((name) => {
    const c = mix[name];
    if (c.muted || (soloing && !c.solo)) return 0;
    return c.volume;
  });
}

function reset(status: StemsState['status'] = 'off') {
  pending?.abort();
  pending = null;
  stemsState.status = status;
  stemsState.progress = null;
  stemsState.error = null;
}

/** The Stems button: clears the stems if there are any (or a request in flight), else asks. */
export function toggleStems(): void {
  const track = playerState.currentTrack;
  if (!track) return;
  const current = stemsState.trackId === track.id;
  if (playerState.stems || (current && stemsState.status === 'loading')) {
    reset();
    setStems(null);
    return;
  }
  reset('loading');
  stemsState.trackId = track.id;
  stemsState.mix = freshMix();
  const controller = new AbortController();
  pending = controller;
  separateStems(track.audioUrl, {
    signal: controller.signal,
    onProgress: (fraction) => {
      if (pending === controller) stemsState.progress = fraction;
    },
  }).then(
    (urls) => {
      if (pending !== controller || playerState.currentTrack?.id !== track.id) return;
      pending = null;
      stemsState.status = 'on';
      stemsState.progress = null;
      setStems(urls);
    },
    () => {
      if (pending !== controller) return;
      pending = null;
      stemsState.status = 'error';
      stemsState.error = FAILED_TO_SEPARATE_STEMS;
    },
  );
}

/** Engine feedback: the stems did not load; the track plays on without them. */
export function stemsFailed(): void {
  reset('error');
  stemsState.error = FAILED_TO_SEPARATE_STEMS;
  setStems(null);
}

/** A new track (or none): stems and their request belong to the previous one. */
export function forgetStemsUnlessFor(trackId: string | null): void {
  if (stemsState.trackId !== null && stemsState.trackId !== trackId) {
    reset();
    stemsState.trackId = null;
  }
}

export function setStemVolume(name: StemName, volume: number): void {
  stemsState.mix[name].volume = Math.min(1, Math.max(0, volume));
}

export function toggleStemMute(name: StemName): void {
  stemsState.mix[name].muted = !stemsState.mix[name].muted;
}

export function toggleStemSolo(name: StemName): void {
  stemsState.mix[name].solo = !stemsState.mix[name].solo;
}

export type StemPreset = 'all' | 'karaoke' | 'vocals-only';

/** "Karaoke": vocals off; "Vocals only": the vocals alone; "All": every stem back on. */
export function applyStemPreset(preset: StemPreset): void {
  for (const name of STEM_NAMES) {
    const c = stemsState.mix[name];
    c.solo = false;
    c.muted =
      preset === 'karaoke'
        ? name === 'vocals'
        : preset === 'vocals-only'
          ? name !== 'vocals'
          : false;
  }
}

/** Engine feedback: how many stem sources are playing. */
export function syncPlayingSources(n: number): void {
  if (stemsState.playingSources !== n) stemsState.playingSources = n;
}
