/**
 * Where the backend is: build-time variables, else the embedded server's `/_app/config` (every
 * mode; server/http/app.ts): its anon key, and its URL in development (PUBLIC_URL) or none in
 * production, where the backend is the origin that served the page.
 */
export interface BackendConfig {
  url: string;
  anonKey: string;
}

const MISSING =
  'Soundloft backend URL or anon key is missing (VITE_SUPABASE_URL, VITE_SUPABASE_ANON_KEY)';

/** The last /_app/config answer: an offline start (the service worker does not serve it) uses it. */
export const BACKEND_CONFIG_STORAGE_KEY = 'soundloft-backend-config';

function remembered(): BackendConfig | null {
  try {
    const raw = globalThis.localStorage?.getItem(BACKEND_CONFIG_STORAGE_KEY);
    const config = raw ? (JSON.parse(raw) as Partial<BackendConfig>) : null;
    return config?.url && config.anonKey ? { url: config.url, anonKey: config.anonKey } : null;
  } catch {
    return null;
  }
}

function remember(config: BackendConfig): void {
  try {
    globalThis.localStorage?.setItem(BACKEND_CONFIG_STORAGE_KEY, JSON.stringify(config));
  } catch {
    // Storage unavailable (private mode, quota): the next offline start cannot find the backend.
  }
}

export async function loadBackendConfig(): Promise<BackendConfig> {
  const url = import.meta.env.VITE_SUPABASE_URL as string | undefined;
  const anonKey = import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined;
  if (url && anonKey) return { url, anonKey };
  let res: Response;
  try {
    res = await fetch('/_app/config', { headers: { accept: 'application/json' } });
  } catch (error) {
    // No network (offline start): the app must still open with the stored session and mirror.
    const known = remembered();
    if (known) return known;
    throw error;
  }
  // Spec 8: the app throws if the backend URL or key is missing.
  if (!res.ok) throw new Error(MISSING);
  const config = (await res.json()) as { url?: string | null; anonKey?: string };
  const backendUrl = config.url ?? globalThis.location?.origin;
  if (!backendUrl || !config.anonKey) throw new Error(MISSING);
  const found = { url: backendUrl, anonKey: config.anonKey };
  remember(found);
  return found;
}
