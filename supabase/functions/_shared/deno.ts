/**
 * The Supabase Edge (Deno) entry of every function: `Deno.serve` with a context built from the
 * function's environment (SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY are set
 * by Supabase; other secrets with `supabase secrets set`). Not loaded by the Node server.
 */
import { createClient } from '@supabase/supabase-js';
import { createFunctionContext, type FunctionHandler } from './context.ts';

/** The part of Deno's global this file uses (declared here so Node's typecheck covers it). */
declare const Deno: {
  serve(handler: (req: Request) => Response | Promise<Response>): unknown;
  env: { get(name: string): string | undefined };
};

export function serveOnDeno(handler: FunctionHandler): void {
  const ctx = createFunctionContext((name) => Deno.env.get(name), createClient);
  Deno.serve((req) => handler(req, ctx));
}
