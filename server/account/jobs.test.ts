/**
 * The account jobs on several nodes (docs/privacy-rights.md, docs/nodes.md): an export or a
 * deletion whose worker died mid-job (its lease run out) is taken over by another node and
 * finished once; a stale worker's token writes nothing; a deletion re-run after its files were
 * already removed (a crash between steps) ends the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTwoNodes } from '../db/use-test-database';
import { DATABASE_HOOK_TIMEOUT_MS } from '../db/test-database';
import { createUser } from '../db/test-factories';
import { createDevMailbox } from '../mail';
import { openObjectStore, type ObjectStore } from '../storage/object-store';
import { startAccountJobs, type AccountJobs } from './jobs';

const nodes = useTwoNodes();
let dataDir: string;
let store: ObjectStore;
const runners: AccountJobs[] = [];

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'soundloft-account-jobs-'));
  store = openObjectStore(dataDir);
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(async () => {
  await Promise.all(runners.map((r) => r.close()));
  rmSync(dataDir, { recursive: true, force: true });
});

const mailer = createDevMailbox({ log: () => undefined });
/** A runner on node B with a 1 s lease (so a dead claim is taken over quickly). */
function nodeB(): AccountJobs {
  const runner = startAccountJobs({
    db: nodes.nodeB,
    store,
    mailer,
    jwtSecret: 'x'.repeat(32),
    publicUrl: 'http://soundloft.test',
    cancelSubscription: null,
    pollMs: 50,
    leaseMs: 1000,
  });
  runners.push(runner);
  return runner;
}

describe('account jobs', () => {
  it("take over an export whose worker died, and fence the dead worker's token", async () => {
    const db = nodes.test.db;
    const user = await createUser(db);
    const { rows } = await db.query<{ id: string }>(
      `insert into public.data_exports (user_id, state, attempts, locked_by, locked_at)
       values ($1, 'running', 1, 'dead-node/1', now() - interval '1 hour') returning id`,
      [user.id],
    );
    const id = rows[0]!.id;
    const runner = nodeB();
    runner.kick();
    await runner.idle();
    const done = await db.query<{ state: string; object_name: string; attempts: number }>(
      'select state, object_name, attempts from public.data_exports where id = $1',
      [id],
    );
    expect(done.rows[0]).toMatchObject({ state: 'ready', attempts: 2 });
    expect(await store.size('exports', done.rows[0]!.object_name)).toBeGreaterThan(0);
    expect(mailer.list().filter((m) => m.to === user.email)).toHaveLength(1);
    // The dead worker wakes up: its token finds nothing to write.
    const stale = await db.query(
      `update public.data_exports set progress = 1
        where id = $1 and locked_by = 'dead-node/1' and state = 'running'`,
      [id],
    );
    expect(stale.affectedRows).toBe(0);
  });

  it('take over a deletion whose worker died after removing the files, and finish it once', async () => {
    const db = nodes.test.db;
    const user = await createUser(db);
    await db.query(`select public.post_ledger_entry($1, 2, 'play')`, [user.id]);
    await db.query(
      `insert into public.account_deletions (user_id, run_after, state, attempts, locked_by, locked_at, stage)
       values ($1, now() - interval '1 day', 'running', 1, 'dead-node/2', now() - interval '1 hour', 'records')`,
      [user.id],
    );
    const runner = nodeB();
    runner.kick();
    await runner.idle();
    const left = await db.query('select 1 from auth.users where id = $1', [user.id]);
    expect(left.rows).toEqual([]);
    const ledger = await db.query<{ n: number }>(
      `select count(*)::int as n from public.earnings_ledger
        where user_id is null and former_account is not null and amount = 2`,
    );
    expect(ledger.rows[0]!.n).toBeGreaterThanOrEqual(1);
  });

  it('leave a deletion alone during its grace period', async () => {
    const db = nodes.test.db;
    const user = await createUser(db);
    await db.query(
      `insert into public.account_deletions (user_id, run_after) values ($1, now() + interval '14 days')`,
      [user.id],
    );
    const runner = nodeB();
    runner.kick();
    await runner.idle();
    const row = await db.query<{ state: string }>(
      'select state from public.account_deletions where user_id = $1',
      [user.id],
    );
    expect(row.rows).toEqual([{ state: 'queued' }]);
  });
});
