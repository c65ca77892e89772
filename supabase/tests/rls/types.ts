/** Shared shapes of the RLS matrix: actors, the fixture rows, and one case per statement. */
import type { TestUser } from '../../../server/db/test-factories';
import type { Outcome } from '../../../server/db/test-attempt';

export type Actor = 'anon' | 'owner' | 'other' | 'admin';
export const ACTORS: Actor[] = ['anon', 'owner', 'other', 'admin'];

export interface Fixture {
  owner: TestUser;
  other: TestUser;
  admin: TestUser;
  trackO: string;
  trackO2: string;
  /** An audio object of the owner's in the tracks bucket. */
  audioO: string;
  trackX: string;
  playlistO: string;
  likeO: string;
  historyO: string;
  withdrawalO: string;
}

export interface Case {
  name: string;
  sql: (f: Fixture) => [string, unknown[]];
  /** anon, owner, other, admin */
  expect: [Outcome, Outcome, Outcome, Outcome];
}

export const ALL_DENIED: Case['expect'] = ['denied', 'denied', 'denied', 'denied'];
export const ALL_OK: Case['expect'] = ['ok', 'ok', 'ok', 'ok'];
