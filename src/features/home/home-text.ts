/** Small pure helpers of /home (greeting, relative times), unit tested. */

/** Spec 2: the first name of the profile's name, else of the account's name, else 'Music Lover'. */
export function greetingName(
  profileName: string | null | undefined,
  metadataName: unknown,
): string {
  for (const name of [profileName, metadataName]) {
    if (typeof name !== 'string') continue;
    const first = name.trim().split(/\s+/)[0];
    if (first) return first;
  }
  return 'Music Lover';
}

/** '2 min ago', '3 h ago', '5 d ago', then the date ('12 Oct'). */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const then = Date.parse(iso);
  if (!Number.isFinite(then)) return '';
  const minutes = Math.floor(Math.max(0, now - then) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days} d ago`;
  return new Date(then).toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
}
