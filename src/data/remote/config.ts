/** Where the backend is: build-time variables, else the embedded server's /_dev/config. */
export interface BackendConfig {
  url: string;
  anonKey: string;
}

export async function loadBackendConfig(): Promise<BackendConfig> {
  const url = import.meta.env.VITE_SUPABASE_URL as string | undefined;
  const anonKey = import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined;
  if (url && anonKey) return { url, anonKey };
  const res = await fetch('/_dev/config', { headers: { accept: 'application/json' } });
  if (!res.ok) {
    // Spec 8: the app throws if the backend URL or key is missing.
    throw new Error(
      'Soundloft backend URL or anon key is missing (VITE_SUPABASE_URL, VITE_SUPABASE_ANON_KEY)',
    );
  }
  const config = (await res.json()) as Partial<BackendConfig>;
  if (!config.url || !config.anonKey) {
    throw new Error(
      'Soundloft backend URL or anon key is missing (VITE_SUPABASE_URL, VITE_SUPABASE_ANON_KEY)',
    );
  }
  return { url: config.url, anonKey: config.anonKey };
}
