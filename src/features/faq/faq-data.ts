import type { FaqEntry } from './faq-types';
import { FILE_LIMITS, PAYOUT, PRODUCT_NAME } from '../../lib/constants';
import { PLANS, formatUploadLimit, getPlan } from '../../lib/plans';

/** 'a, b and c' */
const joinList = (items: readonly string[], word: string): string =>
  items.length <= 1
    ? items.join('')
    : `${items.slice(0, -1).join(', ')} ${word} ${items[items.length - 1]}`;

const free = getPlan('free');
const basic = getPlan('basic');
const premium = getPlan('premium');

const planSummary = PLANS.map((plan) => {
  const price = plan.priceEur === '0.00' ? 'no charge' : `${plan.priceEur} EUR per month`;
  const extras = [
    `${plan.audioQuality.label.toLowerCase()} audio`,
    plan.ads ? 'with ads' : 'no ads',
    ...(plan.offlineDownloads ? ['offline downloads'] : []),
  ].join(', ');
  return `${plan.name} (${price}): ${extras}`;
}).join('; ');

const uploadLimitSummary = joinList(
  PLANS.map((plan) =>
    plan.monthlyUploadLimit === null
      ? `an ${formatUploadLimit(plan).toLowerCase()} number on ${plan.name}`
      : `${formatUploadLimit(plan)} tracks on ${plan.name}`,
  ),
  'and',
);

const imageFormats = joinList(
  FILE_LIMITS.imageMimeTypes.map((type) => type.replace('image/', '').toUpperCase()),
  'or',
);

export const FAQ_ENTRIES: readonly FaqEntry[] = [
  {
    id: 'what-is-soundloft',
    category: 'general',
    question: `What is ${PRODUCT_NAME}?`,
    answer: `${PRODUCT_NAME} is a music streaming service where listeners discover, play and like tracks, follow other people and build playlists, and where artists upload their own music and earn money from every counted play. You can use it in your browser or install it as an app on your phone or computer.`,
  },
  {
    id: 'plans-and-prices',
    category: 'general',
    question: 'What plans are there and what do they cost?',
    answer: `There are three plans. ${planSummary}. ${premium.name} streams the artist's original file when that upload is lossless. Ads are shown only on the ${free.name} plan. Paid plans are billed monthly or annually in advance and can be cancelled at any time.`,
  },
  {
    id: 'upload-formats',
    category: 'music',
    question: 'Which files can I upload?',
    answer: `Audio can be ${joinList(FILE_LIMITS.audioFormats, 'or')}, up to ${FILE_LIMITS.audioMaxMb} MB per file. A cover image is optional: ${imageFormats} up to ${FILE_LIMITS.coverMaxMb} MB, ideally square and at least ${FILE_LIMITS.coverRecommendedPx} x ${FILE_LIMITS.coverRecommendedPx} pixels. Profile pictures can be ${imageFormats} up to ${FILE_LIMITS.avatarMaxMb} MB. Upload only music you own or have licensed.`,
  },
  {
    id: 'upload-limits',
    category: 'music',
    question: 'How many tracks can I upload each month?',
    answer: `It depends on your plan. Per calendar month you can upload ${uploadLimitSummary}. The upload page shows how many uploads you have left. When you reach your limit, you can upgrade your plan to upload more; ${premium.name} has no limit.`,
  },
  {
    id: 'offline-listening',
    category: 'music',
    question: 'Can I listen offline?',
    answer: `Offline downloads are part of ${premium.name}: download tracks in the app and play them without a connection. ${free.name} and ${basic.name} do not include downloads. On every plan, the installed app opens without a connection and shows your library, likes and playlists as they were last synced; changes you make offline are sent when you are back online.`,
  },
  {
    id: 'synced-lyrics',
    category: 'music',
    question: 'How do synced lyrics work?',
    answer:
      'When a track has synced lyrics, the current line is highlighted on the track page as the song plays and stays in view. Artists add lyrics to their own tracks in the lyrics studio on the track page: each line gets a timestamp, typed as mm:ss or in seconds, or taken from the current playback position. Only the artist who uploaded a track can edit its lyrics.',
  },
  {
    id: 'earnings-per-play',
    category: 'payouts',
    question: 'How much do artists earn, and what counts as a play?',
    answer: `Artists earn ${PAYOUT.ratePer1000PlaysEur} EUR per 1,000 counted plays, and 100% of it goes to the artist: ${PRODUCT_NAME} takes no platform fee. A play counts once per listener, track and session, after 30 seconds of listening or after the whole track if it is shorter. Plays of your own tracks from your account never count, the number of counted plays per listener and track per day is limited, plays from a new account count once it is an hour old and its email address is confirmed, and plays made offline count when the listener's device reconnects.`,
  },
  {
    id: 'withdrawing-earnings',
    category: 'payouts',
    question: 'How and when do I get paid?',
    answer: `Open Payouts. Once your balance is at least ${PAYOUT.minimumWithdrawalEur} EUR, you can request a withdrawal by ${PAYOUT.methods[0]} (enter your PayPal email address) or by ${PAYOUT.methods[1]} (enter the account holder name, IBAN and SWIFT code). Withdrawals are processed ${PAYOUT.processing}, and the money normally arrives within ${PAYOUT.businessDays} business days after processing. Your payout history shows each request as pending, completed or rejected.`,
  },
  {
    id: 'verify-email',
    category: 'account',
    question: "I signed up but can't log in. What should I do?",
    answer:
      'After signing up with an email address and password, you need to verify your email. Open the link in the verification email we sent you, then log in. If you prefer, you can use Continue with Google on the login or sign-up page to sign in with your Google account instead.',
  },
  {
    id: 'reset-password',
    category: 'account',
    question: 'I forgot my password. How do I reset it?',
    answer:
      'On the login page, choose Forgot password and enter your email address. If an account exists for that address, we send you a link to reset your password. If you signed up with Google, use Continue with Google instead.',
  },
  {
    id: 'cancel-subscription',
    category: 'account',
    question: 'How do I cancel my subscription?',
    answer: `You can cancel at any time. Go to Subscription, choose Downgrade to Free on the ${free.name} card and confirm. This cancels your paid subscription and moves your account to the ${free.name} plan. Subscription payments are non-refundable, except where a refund is required by law.`,
  },
];
