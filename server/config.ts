import { fileURLToPath } from 'node:url';

/** Repository root (server/ lives one level below it). */
export const ROOT_DIR = fileURLToPath(new URL('..', import.meta.url));

export interface ServerConfig {
  port: number;
  host: string;
  /** Built front end served by the server. */
  distDir: string;
  /** Skip the "build if needed" step (the caller guarantees dist/ is current). */
  skipBuild: boolean;
}

function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer between 0 and 65535, got "${value}"`);
  }
  return port;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    port: parsePort(env.PORT, 8787),
    host: env.HOST || '0.0.0.0',
    distDir: env.DIST_DIR || fileURLToPath(new URL('../dist', import.meta.url)),
    skipBuild: env.SKIP_BUILD === '1' || env.SKIP_BUILD === 'true',
  };
}
