/**
 * Loudness normalisation (docs/player.md): every track is played toward the same integrated
 * loudness, -14 LUFS (Spotify's default), from what the server measured (EBU R128 loudness and
 * true peak). The gain never lifts the true peak above -1 dBTP, so nothing clips. An <audio>
 * element cannot amplify: the gain multiplies the listener's volume up to full scale, so a quiet
 * track is lifted as far as the volume leaves room, and a loud one is always turned down.
 */

/** The loudness every track is played toward (LUFS). */
export const TARGET_LUFS = -14;
/** The true peak a normalised track may reach (dBTP). */
export const PEAK_CEILING_DBTP = -1;

/**
 * The gain in dB that brings a track measured at `lufs` (true peak `truePeakDb`) toward the
 * target without its peak passing the ceiling; 0 when the track was not measured.
 */
export function normalisationGainDb(
  lufs: number | null | undefined,
  truePeakDb: number | null | undefined,
): number {
  if (typeof lufs !== 'number' || !Number.isFinite(lufs)) return 0;
  const toTarget = TARGET_LUFS - lufs;
  if (typeof truePeakDb !== 'number' || !Number.isFinite(truePeakDb)) return Math.min(0, toTarget);
  return Math.min(toTarget, PEAK_CEILING_DBTP - truePeakDb);
}

export const dbToGain = (db: number): number => 10 ** (db / 20);

/** What the audio element plays at: the listener's volume times the gain, at most full scale. */
export function normalisedVolume(volume: number, gainDb: number): number {
  return Math.min(1, Math.max(0, volume * dbToGain(gainDb)));
}
