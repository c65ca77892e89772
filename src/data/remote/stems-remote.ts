/**
 * Stems (docs/stems.md): the spec's `spleeter` function, `{audioUrl}` → `{stemUrls}` (vocals,
 * drums, bass, other). Separation is a job on the server: while it runs the function answers
 * `{state, progress}` (202) and this asks again until the stems are ready. Every failure is the
 * spec's 'Failed to separate stems' (the server's reason stays in `cause`).
 */
import { getSupabase, type SoundloftClient } from './client';
import { loadBackendConfig } from './config';

export const STEM_NAMES = ['vocals', 'drums', 'bass', 'other'] as const;
export type StemName = (typeof STEM_NAMES)[number];
export const FAILED_TO_SEPARATE_STEMS = 'Failed to separate stems';

type Answer =
  { state: 'ready'; stemUrls: string[] } | { state: 'queued' | 'running'; progress: number };

export interface SeparateStemsOptions {
  /** 0..1 while the server separates. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  pollMs?: number;
  getClient?: () => Promise<SoundloftClient>;
}

async function reasonOf(error: unknown): Promise<string> {
  const context = (error as { context?: unknown }).context;
  if (context instanceof Response) {
    const body = (await context.json().catch(() => null)) as { error?: unknown } | null;
    if (typeof body?.error === 'string') return body.error;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The function signs stem URLs with the address it reaches the storage API by; the browser
 * fetches them from the backend it knows (same path and token).
 */
function onBackend(url: string, backendUrl: string): string {
  const u = new URL(url, backendUrl);
  const i = u.pathname.indexOf('/storage/v1/');
  if (i < 0) return u.href;
  return new URL(u.pathname.slice(i) + u.search, backendUrl).href;
}

/** Asks for the stems of a track's audio and waits for them; resolves with the four URLs. */
export async function separateStems(
  audioUrl: string,
  { onProgress, signal, pollMs = 1500, getClient = getSupabase }: SeparateStemsOptions = {},
): Promise<string[]> {
  const client = await getClient();
  for (;;) {
    signal?.throwIfAborted();
    const { data, error } = await client.functions.invoke<Answer>('spleeter', {
      body: { audioUrl },
    });
    signal?.throwIfAborted();
    if (error || !data) {
      throw new Error(FAILED_TO_SEPARATE_STEMS, { cause: await reasonOf(error) });
    }
    if (data.state === 'ready' && data.stemUrls.length === STEM_NAMES.length) {
      const { url } = await loadBackendConfig();
      return data.stemUrls.map((u) => onBackend(u, url));
    }
    if (data.state !== 'queued' && data.state !== 'running') {
      throw new Error(FAILED_TO_SEPARATE_STEMS, { cause: 'unexpected answer' });
    }
    onProgress?.(data.progress);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, pollMs);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      });
    });
  }
}
