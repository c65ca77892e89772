/**
 * Pull (docs/sync.md): per table and user a checkpoint (the newest (cursor, tie-break) seen).
 * Without one, a full load that replaces the mirror's rows of that scope; with one, the rows and
 * tombstones changed since checkpoint − overlap, paged by keyset. Rows with queued local writes
 * keep their local version; a row fetched in the same pull wins over its tombstone.
 */
import { pendingKeys } from './outbox';
import { markDirty, refetchDirty, refreshHistory, refreshProfile } from './refetch';
import { PULL_SPECS, type PullSpec } from './tables';
import type { SyncRemote } from './types';
import { markMirrorFilled, type SoundloftDb } from '../db';

export const PAGE_SIZE = 1000;
/** Rows committed late (transactions that started before the checkpoint) are still seen. */
export const OVERLAP_MS = 60_000;

export interface PullDeps {
  db: SoundloftDb;
  remote: SyncRemote;
  userId: string;
  overlapMs?: number;
  /** Also re-read the own profile and listening history (default true). */
  extras?: boolean;
}

interface Checkpoint {
  at: string;
  id: string;
}

type Raw = Record<string, unknown>;

const checkpointKey = (userId: string, table: string) => `checkpoint:${userId}:${table}`;

export async function readCheckpoint(
  db: SoundloftDb,
  userId: string,
  table: string,
): Promise<Checkpoint | null> {
  const entry = await db.meta.get(checkpointKey(userId, table));
  return (entry?.value as Checkpoint | undefined) ?? null;
}

function minus(at: string, ms: number): string {
  const t = Date.parse(at);
  return Number.isFinite(t) ? new Date(t - ms).toISOString() : at;
}

const later = (a: Checkpoint | null, b: Checkpoint): Checkpoint =>
  !a || Date.parse(b.at) > Date.parse(a.at) || (b.at === a.at && b.id > a.id) ? b : a;

async function pageAll(
  remote: SyncRemote,
  base: Parameters<SyncRemote['select']>[0],
  cursor: string,
  tieBreak: string,
): Promise<Raw[]> {
  const rows: Raw[] = [];
  let after: Checkpoint | undefined;
  for (;;) {
    const page = await remote.select({
      ...base,
      orderBy: cursor,
      tieBreak,
      limit: PAGE_SIZE,
      ...(after ? { after } : {}),
    });
    rows.push(...page);
    const last = page.at(-1);
    if (page.length < PAGE_SIZE || !last) return rows;
    after = { at: String(last[cursor]), id: String(last[tieBreak]) };
  }
}

interface Fetched {
  spec: PullSpec;
  cp: Checkpoint | null;
  from: string | null;
  rows: Raw[];
}

async function bounds(deps: PullDeps, spec: PullSpec): Promise<Fetched> {
  const cp = await readCheckpoint(deps.db, deps.userId, spec.name);
  const from = cp ? minus(cp.at, deps.overlapMs ?? OVERLAP_MS) : null;
  return { spec, cp, from, rows: [] };
}

async function fetchRows(deps: PullDeps, f: Fetched): Promise<Fetched> {
  const { spec, from } = f;
  const rows = await pageAll(
    deps.remote,
    {
      table: spec.remote,
      eq: spec.scope(deps.userId),
      ...(from ? { gte: [spec.cursor, from] as [string, string] } : {}),
    },
    spec.cursor,
    spec.tieBreak,
  );
  return { ...f, rows };
}

/** One read of the tombstones of every table that has a checkpoint, from the oldest bound. */
async function fetchTombstones(deps: PullDeps, fetched: Fetched[]): Promise<Raw[]> {
  const bounds = fetched.filter((f) => f.from);
  if (!bounds.length) return [];
  const from = bounds.map((f) => f.from as string).sort()[0] as string;
  return pageAll(
    deps.remote,
    {
      table: 'sync_deletions',
      columns: 'id,table_name,row_key,deleted_at',
      in: ['table_name', bounds.map((f) => f.spec.remote)],
      gte: ['deleted_at', from],
    },
    'deleted_at',
    'id',
  );
}

/** One table's merge; runs inside pullTables' transaction. */
async function merge(deps: PullDeps, f: Fetched, allTombstones: Raw[]): Promise<void> {
  const { db, userId } = deps;
  const { spec, cp, from, rows } = f;
  const tombstones = from
    ? allTombstones.filter(
        (t) => t.table_name === spec.remote && Date.parse(String(t.deleted_at)) >= Date.parse(from),
      )
    : [];
  let next = cp;
  for (const r of rows) {
    next = later(next, { at: String(r[spec.cursor]), id: String(r[spec.tieBreak]) });
  }
  for (const t of tombstones) next = later(next, { at: String(t.deleted_at), id: '' });

  const pending = spec.entity ? await pendingKeys(db, userId, spec.entity) : new Set<string>();
  const fetchedKeys = new Set(rows.map(spec.keyOf));
  // A full load replaces the scope; an incremental one removes what the tombstones name.
  const gone = cp ? tombstones.map((t) => String(t.row_key)) : await spec.localKeys(db, userId);
  // Skipped for queued local writes: re-read once those are gone (sent or cancelled), since
  // the checkpoint moves past this change.
  const skipped = [...fetchedKeys, ...(cp ? gone : [])].filter((k) => pending.has(k));
  if (spec.entity && skipped.length) {
    const entity = spec.entity;
    await markDirty(
      deps,
      skipped.map((key) => ({ entity, key })),
    );
  }
  // An incremental pull re-reads its overlap window, mostly rows the mirror already has: those
  // are not written again (quiet), nor is a checkpoint that did not move.
  const quiet = cp !== null;
  await spec.remove(
    db,
    gone.filter((k) => !fetchedKeys.has(k) && !pending.has(k)),
    quiet,
  );
  await spec.put(
    db,
    rows.filter((r) => !pending.has(spec.keyOf(r))),
    quiet,
  );
  if (next && next !== cp)
    await db.meta.put({ key: checkpointKey(userId, spec.name), value: next });
}

/**
 * Pulls the given tables (all by default): tombstones, then rows, then the merges, all tables in
 * one transaction: screens' live queries wake once per pull, not once per table.
 */
export async function pullTables(deps: PullDeps, specs: PullSpec[] = PULL_SPECS): Promise<void> {
  const { db } = deps;
  const planned = await Promise.all(specs.map((spec) => bounds(deps, spec)));
  // Tombstones before rows: a row read afterwards that has a tombstone here was re-created.
  const tombstones = await fetchTombstones(deps, planned);
  const fetched = await Promise.all(planned.map((f) => fetchRows(deps, f)));
  const tables = [...specs.map((spec) => db.table(spec.name)), db.outbox, db.meta];
  await db.transaction('rw', tables, async () => {
    for (const f of fetched) await merge(deps, f, tombstones);
  });
}

/** Everything the user's screens read: the spec's fetchAllData, then incremental. */
export async function pullAll(deps: PullDeps): Promise<void> {
  // Every part runs to its end before a failure is reported (no read left running behind).
  await refetchDirty(deps);
  const extras =
    deps.extras === false ? [] : [refreshProfile(deps, deps.userId), refreshHistory(deps)];
  const results = await Promise.allSettled([pullTables(deps), ...extras]);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  // After the last table's merge: screens tell 'empty' from 'not loaded yet' by this mark.
  await markMirrorFilled(deps.db, deps.userId);
}

export { refreshHistory, refreshLyrics, refreshProfile, refreshPlaylist } from './refetch';
