/** The plans table and the SQL business constants equal the one definition in src/lib. */
import { describe, expect, it } from 'vitest';
import { PAYOUT } from '../../src/lib/constants';
import { PLANS } from '../../src/lib/plans';
import { plansUpsertSql } from '../../server/db/plans-sql';
import { testDatabaseKind } from '../../server/db/test-database';
import { useTestDatabase } from '../../server/db/use-test-database';

const test = useTestDatabase();

async function planRows() {
  const { rows } = await test.db.query(
    `select id, name, price_eur::text as price_eur, monthly_upload_limit, description, badge, features,
              audio_quality, audio_kbps, audio_lossless, offline_downloads, ads
       from public.plans order by sort_order`,
  );
  return rows;
}

/** PLANS as rows of public.plans. */
function expectedRows() {
  return PLANS.map((p) => ({
    id: p.id,
    name: p.name,
    price_eur: p.priceEur,
    monthly_upload_limit: p.monthlyUploadLimit,
    description: p.description,
    badge: p.badge,
    features: p.features,
    audio_quality: p.audioQuality.label,
    audio_kbps: p.audioQuality.kbps,
    audio_lossless: p.audioQuality.lossless,
    offline_downloads: p.offlineDownloads,
    ads: p.ads,
  }));
}

describe(`plans (${testDatabaseKind()})`, () => {
  it('holds exactly the plans of src/lib/plans.ts (if not: npx tsx server/db/plans-sql.ts > a new migration)', async () => {
    expect(await planRows()).toEqual(expectedRows());
  });

  it('can be brought in line with src/lib/plans.ts by the generated SQL', async () => {
    await test.db.exec(plansUpsertSql(PLANS));
    expect(await planRows()).toEqual(expectedRows());
  });

  it('uses the payout constants of src/lib/constants.ts', async () => {
    const { rows } = await test.db.query<{ rate: string; minimum: string; per1000: string }>(
      `select public.play_rate_eur()::text as rate, public.minimum_withdrawal_eur()::numeric(10,2)::text as minimum,
              (public.play_rate_eur() * 1000)::numeric(10,2)::text as per1000`,
    );
    expect(rows[0]).toEqual({
      rate: PAYOUT.ratePerPlayEur,
      minimum: PAYOUT.minimumWithdrawalEur,
      per1000: PAYOUT.ratePer1000PlaysEur,
    });
  });
});
