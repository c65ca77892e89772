/**
 * Test double of SyncRemote over in-memory server tables (unit tests of push and pull): select
 * honours eq / in / gte / keyset / order / limit like the REST gateway; applyMutations is
 * scripted per test.
 */
import { RemoteError, type RemoteFailure } from '../data/sync/errors';
import type { MutationResult, SelectQuery, SyncRemote, WireMutation } from '../data/sync/types';

type Raw = Record<string, unknown>;

export interface FakeRemote extends SyncRemote {
  tables: Record<string, Raw[]>;
  sent: WireMutation[][];
  userId: string | null;
  refreshes: number;
  /** Answers of the next applyMutations calls: a failure, or results (default: all applied). */
  script: (RemoteFailure | ((batch: WireMutation[]) => MutationResult[]))[];
  refreshOk: boolean;
}

const cmp = (a: unknown, b: unknown) => String(a).localeCompare(String(b));

export function createFakeRemote(userId: string | null): FakeRemote {
  const remote: FakeRemote = {
    tables: {},
    sent: [],
    userId,
    refreshes: 0,
    script: [],
    refreshOk: true,
    async currentUserId() {
      return remote.userId;
    },
    async refreshSession() {
      remote.refreshes += 1;
      return remote.refreshOk;
    },
    async applyMutations(_clientId, mutations) {
      remote.sent.push(mutations);
      const next = remote.script.shift();
      if (next && typeof next !== 'function') throw new RemoteError(next);
      if (next) return next(mutations);
      return mutations.map((m) => ({ id: m.id, status: 'applied' as const }));
    },
    async select(q: SelectQuery) {
      let rows = [...(remote.tables[q.table] ?? [])];
      for (const [column, value] of q.eq ?? []) rows = rows.filter((r) => r[column] === value);
      if (q.in) {
        const [column, values] = q.in;
        rows = rows.filter((r) => values.includes(String(r[column])));
      }
      if (q.gte) {
        const [column, value] = q.gte;
        rows = rows.filter((r) => Date.parse(String(r[column])) >= Date.parse(value));
      }
      if (q.orderBy) {
        const by = q.orderBy;
        const tie = q.tieBreak ?? 'id';
        if (q.after) {
          const { at, id } = q.after;
          rows = rows.filter((r) => cmp(r[by], at) > 0 || (r[by] === at && cmp(r[tie], id) > 0));
        }
        rows.sort((a, b) => cmp(a[by], b[by]) || cmp(a[tie], b[tie]));
        if (q.descending) rows.reverse();
      }
      return q.limit ? rows.slice(0, q.limit) : rows;
    },
    async profile(id) {
      const profile = (remote.tables.profiles ?? []).find((p) => p.id === id) ?? null;
      return { profile, private: null };
    },
  };
  return remote;
}

let clock = Date.parse('2026-11-22T08:00:00.000Z');
/** Server-style timestamps, strictly increasing. */
export function serverTime(): string {
  clock += 1000;
  return new Date(clock).toISOString().replace('Z', '+00:00');
}
