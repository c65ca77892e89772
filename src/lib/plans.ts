/**
 * The one definition of Soundloft's plans (DECISIONS.md: prices, upload limits, audio quality,
 * offline listening). Every screen reads it from here; the database's plan table is generated
 * from and checked against it (see docs/architecture.md).
 */
export type PlanId = 'free' | 'basic' | 'premium';

export interface PlanDefinition {
  id: PlanId;
  name: string;
  /** Monthly price in EUR, as a decimal string (money is never a float). */
  priceEur: string;
  description: string;
  badge: string | null;
  /** Tracks an artist may upload per calendar month; null means unlimited. */
  monthlyUploadLimit: number | null;
  audioQuality: { label: string; kbps: number | null; lossless: boolean };
  offlineDownloads: boolean;
  ads: boolean;
  features: string[];
}

export const PLANS: readonly PlanDefinition[] = [
  {
    id: 'free',
    name: 'Free',
    priceEur: '0.00',
    description: 'Everything you need to start listening and sharing your music.',
    badge: null,
    monthlyUploadLimit: 50,
    audioQuality: { label: 'Standard (128 kbps)', kbps: 128, lossless: false },
    offlineDownloads: false,
    ads: true,
    features: [
      'Unlimited streaming of the whole catalogue',
      'Unlimited playlists and likes',
      'Standard audio (128 kbps)',
      '50 track uploads per month',
      'Synced lyrics',
      'Occasional Soundloft promotions',
    ],
  },
  {
    id: 'basic',
    name: 'Basic',
    priceEur: '4.99',
    description: 'Ad-free listening in high quality, with room to grow as an artist.',
    badge: 'Popular',
    monthlyUploadLimit: 100,
    audioQuality: { label: 'High (320 kbps)', kbps: 320, lossless: false },
    offlineDownloads: false,
    ads: false,
    features: [
      'Everything in Free',
      'No ads',
      'High quality audio (320 kbps)',
      '100 track uploads per month',
    ],
  },
  {
    id: 'premium',
    name: 'Premium',
    priceEur: '9.99',
    description: 'Lossless sound, offline downloads and unlimited uploads.',
    badge: 'Best value',
    monthlyUploadLimit: null,
    audioQuality: { label: 'Lossless (original upload)', kbps: null, lossless: true },
    offlineDownloads: true,
    ads: false,
    features: [
      'Everything in Basic',
      'Lossless audio (the original upload when it is lossless)',
      'Offline downloads on your devices',
      'Unlimited track uploads',
    ],
  },
] as const;

export const DEFAULT_PLAN: PlanId = 'free';

export function getPlan(id: PlanId): PlanDefinition {
  const plan = PLANS.find((p) => p.id === id);
  if (!plan) throw new Error(`Unknown plan: ${id}`);
  return plan;
}

/**
 * The display name of a plan id as the database stores it ('Premium'); the default plan's name
 * (Free) for null, undefined or an id this build does not know.
 */
export function planNameOf(planId: string | null | undefined): string {
  return (PLANS.find((p) => p.id === planId) ?? getPlan(DEFAULT_PLAN)).name;
}

export function formatUploadLimit(plan: PlanDefinition): string {
  return plan.monthlyUploadLimit === null ? 'Unlimited' : String(plan.monthlyUploadLimit);
}
