/**
 * What an edge function gets besides its Request, identical on Supabase Edge (Deno) and in the
 * embedded Node server: its environment and supabase-js clients made from SUPABASE_URL and the
 * keys both runtimes provide. Handlers never touch Deno or Node APIs directly.
 */
import type { SupabaseClient, SupabaseClientOptions } from '@supabase/supabase-js';

export interface FunctionContext {
  /** An environment variable or secret (SUPABASE_URL, SUPABASE_ANON_KEY, ...). */
  env(name: string): string | undefined;
  /** supabase-js with the service-role key: bypasses RLS. Never hand its results out blindly. */
  serviceClient(): SupabaseClient;
  /**
   * supabase-js acting as the caller: their `Authorization` header (the anon key when absent),
   * so RLS and `auth.uid()` apply exactly as for the app's own requests.
   */
  userClient(req: Request): SupabaseClient;
}

/** A function: a web-standard handler, the same file on both runtimes. */
export type FunctionHandler = (req: Request, ctx: FunctionContext) => Promise<Response>;

export type CreateClient = (
  url: string,
  key: string,
  options: SupabaseClientOptions<'public'>,
) => SupabaseClient;

export class MissingEnvError extends Error {
  constructor(name: string) {
    super(`${name} is not set`);
    this.name = 'MissingEnvError';
  }
}

/**
 * Builds the context from an environment lookup and the runtime's supabase-js `createClient`
 * (Deno: the npm package as is; Node: with a WebSocket transport for realtime).
 */
export function createFunctionContext(
  env: (name: string) => string | undefined,
  createClient: CreateClient,
): FunctionContext {
  const required = (name: string) => {
    const value = env(name);
    if (!value) throw new MissingEnvError(name);
    return value;
  };
  const options = (authorization?: string): SupabaseClientOptions<'public'> => ({
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    ...(authorization ? { global: { headers: { Authorization: authorization } } } : {}),
  });
  let service: SupabaseClient | undefined;
  return {
    env,
    serviceClient() {
      service ??= createClient(
        required('SUPABASE_URL'),
        required('SUPABASE_SERVICE_ROLE_KEY'),
        options(),
      );
      return service;
    },
    userClient(req) {
      const authorization = req.headers.get('authorization') ?? undefined;
      return createClient(
        required('SUPABASE_URL'),
        required('SUPABASE_ANON_KEY'),
        options(authorization),
      );
    },
  };
}
