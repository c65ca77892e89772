/**
 * The function context on Node: supabase-js with `ws` as realtime transport (Node 20 has no
 * global WebSocket), the server's keys, and SUPABASE_URL pointing back at this server.
 */
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import {
  createFunctionContext,
  type CreateClient,
  type FunctionContext,
} from '../../supabase/functions/_shared/context.ts';

export const nodeCreateClient: CreateClient = (url, key, options) =>
  createClient(url, key, {
    ...options,
    realtime: { ...options.realtime, transport: WebSocket as never },
  });

export function nodeFunctionContext(env: Record<string, string | undefined>): FunctionContext {
  return createFunctionContext((name) => env[name], nodeCreateClient);
}
