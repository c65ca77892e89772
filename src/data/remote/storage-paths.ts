/**
 * Storage object names of the upload path (spec 5; docs/upload.md): `{userId}/{timestamp}_{name}`
 * with every whitespace run replaced by '_'. Storage keys allow only a safe ASCII set, so
 * anything else (accents, emoji, slashes) becomes '_' too.
 */
const UNSAFE = /[^A-Za-z0-9_.!\-*'()&$@=;:+,?]/g;

export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/\s+/g, '_').replace(UNSAFE, '_');
  return cleaned || 'file';
}

export function objectNameFor(userId: string, fileName: string, now = Date.now()): string {
  return `${userId}/${now}_${safeFileName(fileName)}`;
}

/** The track row's audio_url: bucket and object name, no host (upload contract §2). */
export const audioUrlFor = (objectName: string): string => `tracks/${objectName}`;

/** The object name of a public URL of `bucket` ('.../storage/v1/object/public/<bucket>/<name>'). */
export function publicObjectName(url: string, bucket: string): string | null {
  const marker = `/storage/v1/object/public/${bucket}/`;
  const at = url.indexOf(marker);
  return at >= 0 ? decodeURIComponent(url.slice(at + marker.length).split('?', 1)[0] ?? '') : null;
}

/**
 * The object name inside the tracks bucket of an audio_url: 'tracks/<name>' or an old public URL
 * '.../storage/v1/object/public/tracks/<name>'. Null for anything else (seeded static files).
 */
export function trackObjectName(audioUrl: string): string | null {
  if (audioUrl.startsWith('tracks/')) return audioUrl.slice('tracks/'.length);
  return publicObjectName(audioUrl, 'tracks');
}
