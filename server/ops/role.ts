/**
 * SOUNDLOFT_ROLE: what one process of a deployment does (docs/deploy.md).
 *
 * - `all` (default): everything, as `npm start` always did: HTTP, realtime, the job queues, the
 *   sweeps and the demo catalogue.
 * - `web`: HTTP and realtime only. Never claims a processing or stems job and never sweeps
 *   storage garbage; several web nodes stand behind a load balancer.
 * - `worker`: the job queues (processing, stems), the storage garbage sweep and the seeding of
 *   an empty database; no HTTP except `/healthz`, `/readyz` and `/metrics` on HEALTH_PORT.
 */
export type Role = 'all' | 'web' | 'worker';

export const ROLES: readonly Role[] = ['all', 'web', 'worker'];

/** HEALTH_PORT's default: the worker's probe and metrics port. */
export const DEFAULT_HEALTH_PORT = 8788;

export function parseRole(env: NodeJS.ProcessEnv = process.env): Role {
  const value = env.SOUNDLOFT_ROLE?.trim() || 'all';
  if ((ROLES as readonly string[]).includes(value)) return value as Role;
  throw new Error(
    `SOUNDLOFT_ROLE must be one of ${ROLES.join(', ')} (default all), got "${env.SOUNDLOFT_ROLE}"`,
  );
}

export function parseHealthPort(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.HEALTH_PORT?.trim();
  if (!value) return DEFAULT_HEALTH_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`HEALTH_PORT must be an integer between 0 and 65535, got "${value}"`);
  return port;
}

/** What a role runs besides HTTP. */
export interface RoleDuties {
  /** Serves the app and the API on PORT (else only the health port). */
  http: boolean;
  /** Claims processing and stems jobs (with PROCESSING_WORKERS / STEMS_WORKERS slots). */
  jobs: boolean;
  /** Sweeps storage garbage (deleted tracks' files, orphaned originals). */
  sweeps: boolean;
  /** Generates the demo catalogue into an empty database (SEED permitting). */
  seeds: boolean;
  /** Checks and builds the front end before serving it. */
  buildsFrontEnd: boolean;
}

export function dutiesOf(role: Role): RoleDuties {
  switch (role) {
    case 'web':
      return { http: true, jobs: false, sweeps: false, seeds: false, buildsFrontEnd: true };
    case 'worker':
      return { http: false, jobs: true, sweeps: true, seeds: true, buildsFrontEnd: false };
    default:
      return { http: true, jobs: true, sweeps: true, seeds: true, buildsFrontEnd: true };
  }
}
