/**
 * Business constants of the product spec (section 9) and DECISIONS.md, defined once.
 * Money amounts are decimal strings: they are shown, never computed with floats.
 */
export const PRODUCT_NAME = 'Soundloft';
export const SUPPORT_EMAIL = 'support@soundloft.app';
export const LEGAL_EMAIL = 'legal@soundloft.app';
export const PRIVACY_EMAIL = 'privacy@soundloft.app';
export const ACCESSIBILITY_EMAIL = 'accessibility@soundloft.app';
export const LICENSING_EMAIL = 'licensing@soundloft.app';
export const COMMUNITY_EMAIL = 'community@soundloft.app';

export const PAYOUT = {
  /** EUR paid to the artist per 1,000 counted plays. */
  ratePer1000PlaysEur: '2.10',
  /** EUR credited per counted play (2.10 / 1000). */
  ratePerPlayEur: '0.0021',
  minimumWithdrawalEur: '5.00',
  platformFeePercent: 0,
  methods: ['PayPal', 'bank transfer'],
  businessDays: '5-7',
  processing: 'monthly',
  rateChangeNoticeDays: 30,
} as const;

export const FILE_LIMITS = {
  audioMaxMb: 50,
  coverMaxMb: 5,
  avatarMaxMb: 2,
  audioFormats: ['WAV', 'FLAC', 'MP3 (at least 320 kbps)'],
  audioMimeTypes: ['audio/mpeg', 'audio/wav', 'audio/ogg', 'audio/flac'],
  imageMimeTypes: ['image/png', 'image/jpeg', 'image/webp'],
  coverRecommendedPx: 1000,
} as const;

export const PASSWORD_MIN_LENGTH = 6;

/** Spec 9: the upload page goes to /library 2 s after 'Upload Successful!'. */
export const UPLOAD_REDIRECT_MS = 2000;

export const LEGAL = {
  dmcaAcknowledgementHours: '24-48',
  dmcaRemovalBusinessDays: 5,
  counterNoticeRestoreBusinessDays: 10,
  reportReviewHours: 24,
  appealWindowDays: 30,
  appealResponseBusinessDays: '5-7',
  suspensionDays: '7-30',
  termsChangeNoticeDays: 30,
  persistentCookieMaxYears: 2,
  marketingCookieMaxYears: 1,
  responseHours: { community: 24, privacy: 24, licensing: 48, accessibility: 48 },
  accessibilityTarget: 'WCAG 2.1 AA',
} as const;

/** Billing (spec 9): monthly or annually in advance, non-refundable except as required by law. */
export const BILLING = {
  periods: ['monthly', 'annually'],
  currency: 'EUR',
} as const;
