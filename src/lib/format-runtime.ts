/**
 * A total runtime as 'Hh MMm' (spec 2, playlist page): 245 s → '0h 04m', 3900 s → '1h 05m'.
 * Minutes are rounded to the nearest whole minute; anything that is not a positive number is 0.
 */
export function formatRuntime(totalSeconds: number): string {
  const minutes =
    Number.isFinite(totalSeconds) && totalSeconds > 0 ? Math.round(totalSeconds / 60) : 0;
  const hours = Math.floor(minutes / 60);
  return `${hours}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** The runtime of a list of tracks (durations in seconds; missing ones count as 0). */
export function totalDuration(tracks: readonly { duration: number | null | undefined }[]): number {
  return tracks.reduce((sum, t) => sum + (Number.isFinite(t.duration) ? Number(t.duration) : 0), 0);
}
