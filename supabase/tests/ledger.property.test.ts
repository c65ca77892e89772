/**
 * Property (fast-check): over random sequences of counted plays, credits, withdrawal requests,
 * completions and rejections, the artist's balance always equals the ledger's sum, never goes
 * below 0, and matches an exact model kept in ten-thousandths of a euro (no float anywhere).
 * LEDGER_PROPERTY_RUNS sets the number of cases (default 40).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asRole } from '../../server/db/as-role';
import { testDatabaseKind } from '../../server/db/test-database';
import { useTestDatabase } from '../../server/db/use-test-database';
import { createAdmin, createTrack, createUser, serveAudio } from '../../server/db/test-factories';

const test = useTestDatabase();
const RUNS = Number(process.env.LEDGER_PROPERTY_RUNS ?? 40);
const PLAY = 21n; // 0.0021 EUR in ten-thousandths
const MINIMUM = 50_000n; // 5.00 EUR

type Op =
  | { kind: 'play'; listener: number; track: number }
  | { kind: 'credit'; units: number }
  | { kind: 'withdraw'; cents: number }
  | { kind: 'process'; pick: number; status: 'completed' | 'rejected' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('play' as const), listener: fc.nat(2), track: fc.nat(1) }),
  fc.record({ kind: fc.constant('credit' as const), units: fc.integer({ min: 1, max: 150_000 }) }),
  fc.record({
    kind: fc.constant('withdraw' as const),
    // Mostly amounts the balance can cover, some below the minimum or above the balance.
    cents: fc.oneof(fc.integer({ min: 500, max: 1_500 }), fc.integer({ min: 1, max: 4_000 })),
  }),
  fc.record({
    kind: fc.constant('process' as const),
    pick: fc.nat(10),
    status: fc.constantFrom('completed' as const, 'rejected' as const),
  }),
);

/** '12.3456' → 123456n (exact). */
function units(text: string): bigint {
  const [whole, frac = ''] = text.split('.');
  const sign = whole!.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(whole!.replace('-', '')) * 10_000n + BigInt((frac + '0000').slice(0, 4)));
}
const euros = (cents: number) =>
  `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

describe(`the ledger (${testDatabaseKind()})`, () => {
  it('keeps balance = ledger sum >= 0, exactly, whatever happens', async () => {
    const admin = await createAdmin(test.db);
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 30 }), async (ops) => {
        const { db } = test;
        const artist = await createUser(db);
        const listeners = await Promise.all(
          [0, 1, 2].map(() => createUser(db, { established: true })),
        );
        const tracks = [await createTrack(db, artist), await createTrack(db, artist)];
        let model = 0n;
        const pending: { id: string; amount: bigint }[] = [];
        const countedToday = new Map<string, number>();
        let session = 0;

        for (const op of ops) {
          if (op.kind === 'play') {
            const listener = listeners[op.listener]!;
            const track = tracks[op.track]!;
            await serveAudio(db, listener.id, track.id); // a whole listen (docs/plays.md)
            const counted = await asRole(db, listener.claims, async (tx) => {
              const { rows } = await tx.query<{ counted: boolean }>(
                'select public.increment_track_plays($1, $2) as counted',
                [track.id, `s${session++}`],
              );
              return rows[0]!.counted;
            });
            const key = `${op.listener}:${op.track}`;
            const before = countedToday.get(key) ?? 0;
            expect(counted).toBe(before < 10);
            if (counted) {
              countedToday.set(key, before + 1);
              model += PLAY;
            }
          } else if (op.kind === 'credit') {
            // Many counted plays at once, through the ledger's one writer.
            await db.query(`select public.post_ledger_entry($1, $2::numeric, 'play')`, [
              artist.id,
              `${Math.floor(op.units / 10_000)}.${String(op.units % 10_000).padStart(4, '0')}`,
            ]);
            model += BigInt(op.units);
          } else if (op.kind === 'withdraw') {
            const amount = BigInt(op.cents) * 100n;
            const result = await asRole(db, artist.claims, (tx) =>
              tx.query<{ id: string }>(
                'select id from public.request_withdrawal($1::numeric, $2, $3)',
                [euros(op.cents), 'paypal', 'artist@example.test'],
              ),
            ).then(
              (r) => r.rows[0]!.id,
              (e: Error) => e,
            );
            const allowed = amount >= MINIMUM && model >= MINIMUM && amount <= model;
            if (allowed) {
              expect(result).toBeTypeOf('string');
              pending.push({ id: result as string, amount });
              model -= amount;
            } else {
              expect(String(result)).toMatch(
                /Minimum withdrawal amount is 5 EUR\.|Insufficient balance\./,
              );
            }
          } else if (pending.length > 0) {
            const [w] = pending.splice(op.pick % pending.length, 1);
            await asRole(db, admin.claims, (tx) =>
              tx.query('select public.process_withdrawal($1, $2)', [w!.id, op.status]),
            );
            if (op.status === 'rejected') model += w!.amount;
            // Processing it again changes nothing.
            await expect(
              asRole(db, admin.claims, (tx) =>
                tx.query('select public.process_withdrawal($1, $2)', [w!.id, 'rejected']),
              ),
            ).rejects.toThrow('This withdrawal has already been processed.');
          }

          const { rows } = await db.query<{ balance: string; ledger: string | null }>(
            `select p.balance, (select sum(l.amount) from earnings_ledger l where l.user_id = p.id)::text as ledger
               from profiles p where p.id = $1`,
            [artist.id],
          );
          const balance = units(rows[0]!.balance);
          expect(balance).toBe(units(rows[0]!.ledger ?? '0'));
          expect(balance).toBe(model);
          expect(balance >= 0n).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  }, 600_000);
});
