import { PAYOUT } from '@/lib/constants';
import { formatUploadLimit, type PlanDefinition } from '@/lib/plans';

export interface ComparisonRow {
  feature: string;
  /** Soundloft's value per plan, derived from the plan definition. */
  plan: (plan: PlanDefinition) => string;
  /** What a typical competing streaming service offers. */
  competitor: string;
}

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');

export const COMPARISON_ROWS: ComparisonRow[] = [
  {
    feature: 'Monthly price',
    plan: (p) => (p.priceEur === '0.00' ? 'Free' : `${p.priceEur} EUR`),
    competitor: '10.99 EUR',
  },
  {
    feature: 'Ads',
    plan: (p) => (p.ads ? 'Occasional promotions' : 'None'),
    competitor: 'On the free tier',
  },
  { feature: 'Audio quality', plan: (p) => p.audioQuality.label, competitor: 'Up to 320 kbps' },
  {
    feature: 'Offline downloads',
    plan: (p) => yesNo(p.offlineDownloads),
    competitor: 'Paid tier only',
  },
  { feature: 'Unlimited playlists', plan: () => 'Yes', competitor: 'Yes' },
  { feature: 'Synced lyrics', plan: () => 'Yes', competitor: 'Some tracks' },
  {
    feature: 'Track uploads per month',
    plan: (p) => formatUploadLimit(p),
    competitor: 'Not offered to listeners',
  },
  {
    feature: 'Artist earnings per 1,000 plays',
    plan: () => `${PAYOUT.ratePer1000PlaysEur} EUR`,
    competitor: 'Undisclosed, varies by market',
  },
  {
    feature: 'Platform fee on artist earnings',
    plan: () => `${PAYOUT.platformFeePercent}%`,
    competitor: 'Revenue share withheld',
  },
];
