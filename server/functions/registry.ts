/**
 * Finds and loads edge functions from `supabase/functions/<name>/`: `handler.ts` exports
 * `handler: (req, ctx) => Promise<Response>`; an optional `config.json` `{"verify_jwt": false}`
 * opts out of JWT verification (as `[functions.<name>] verify_jwt = false` does on Supabase).
 * Folders starting with `_` or `.` are shared code, never functions.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FunctionHandler } from '../../supabase/functions/_shared/context.ts';

export const DEFAULT_FUNCTIONS_DIR = fileURLToPath(
  new URL('../../supabase/functions', import.meta.url),
);

export interface LoadedFunction {
  name: string;
  handler: FunctionHandler;
  verifyJwt: boolean;
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/i;

export function isFunctionName(name: string): boolean {
  return NAME.test(name);
}

function readConfig(dir: string): { verifyJwt: boolean } {
  const file = join(dir, 'config.json');
  if (!existsSync(file)) return { verifyJwt: true };
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const verify = (parsed as { verify_jwt?: unknown } | null)?.verify_jwt;
  if (verify !== undefined && typeof verify !== 'boolean') {
    throw new Error(`${file}: verify_jwt must be true or false`);
  }
  return { verifyJwt: verify !== false };
}

/** Loads functions on first use and keeps them; null for a name that is not a function. */
export function createFunctionRegistry(dir: string = DEFAULT_FUNCTIONS_DIR) {
  const loaded = new Map<string, Promise<LoadedFunction>>();
  return {
    dir,
    get(name: string): Promise<LoadedFunction> | null {
      if (!isFunctionName(name)) return null;
      const folder = join(dir, name);
      const file = join(folder, 'handler.ts');
      if (!existsSync(file) || !statSync(file).isFile()) return null;
      let entry = loaded.get(name);
      if (!entry) {
        entry = (async () => {
          const mod = (await import(pathToFileURL(file).href)) as { handler?: unknown };
          if (typeof mod.handler !== 'function') {
            throw new Error(`${file} does not export a handler function`);
          }
          return { name, handler: mod.handler as FunctionHandler, ...readConfig(folder) };
        })();
        entry.catch(() => loaded.delete(name)); // retry after a fix
        loaded.set(name, entry);
      }
      return entry;
    },
  };
}
