import type { LegalDocument } from '../legal-types';
import {
  COMMUNITY_EMAIL,
  LEGAL,
  LEGAL_EMAIL,
  PAYOUT,
  PRODUCT_NAME,
  SUPPORT_EMAIL,
} from '../../../lib/constants';
import { PLANS, formatUploadLimit } from '../../../lib/plans';

const planLines = PLANS.map((plan) => {
  const price = plan.priceEur === '0.00' ? 'free of charge' : `${plan.priceEur} EUR per month`;
  const uploads =
    plan.monthlyUploadLimit === null
      ? `${formatUploadLimit(plan).toLowerCase()} track uploads`
      : `${formatUploadLimit(plan)} track uploads per calendar month`;
  const parts = [
    price,
    `${plan.audioQuality.label.toLowerCase()} audio`,
    uploads,
    plan.ads ? 'includes ads' : 'no ads',
    ...(plan.offlineDownloads ? ['offline downloads'] : []),
  ];
  return `${plan.name}: ${parts.join('; ')}.`;
});

export const termsOfService: LegalDocument = {
  slug: 'terms-of-service',
  title: 'Terms of Service',
  lastUpdated: '2026-11-01',
  summary: `These terms govern your use of ${PRODUCT_NAME}, the music streaming and artist-upload service. By creating an account or using the service you agree to them.`,
  sections: [
    {
      id: 'about-these-terms',
      heading: 'About these terms',
      paragraphs: [
        `${PRODUCT_NAME} ("we", "us") lets listeners discover, play, like and organize music, and lets artists upload their own tracks and earn money from plays. These terms apply to the website, the installable web app and every other part of the service.`,
        'Our Privacy Policy, Cookie Policy, Copyright Policy, Community Guidelines and Music Licensing terms form part of these terms. Where they go into more detail on a topic, the more detailed document applies.',
        'Nothing in these terms limits the rights you have as a consumer under the mandatory law of the country where you live.',
      ],
    },
    {
      id: 'your-account',
      heading: 'Your account',
      paragraphs: [
        'You can sign up with your name, email address and a password, or sign in with your Google account. If you sign up with an email address, you must confirm it through the verification link we send before you can log in.',
        'You must be old enough to enter into a binding agreement in your country, or have the permission of a parent or guardian who accepts these terms on your behalf.',
      ],
      items: [
        'Give accurate information and keep your profile name, bio and links truthful.',
        'Keep your password secret and do not share your account. You are responsible for activity that happens under your account.',
        `Tell us at ${SUPPORT_EMAIL} straight away if you think someone else has used your account.`,
        'One person may hold one account. Accounts may not be sold or transferred.',
      ],
    },
    {
      id: 'plans-and-billing',
      heading: 'Plans, billing and cancellation',
      paragraphs: [`${PRODUCT_NAME} offers the following plans:`],
      items: planLines,
      subsections: [
        {
          heading: 'Billing',
          paragraphs: [
            'Paid plans are billed in advance, monthly or annually, for the billing period you choose at checkout, and renew automatically at the end of each period until you cancel.',
            `Payments are handled by our card payment provider. ${PRODUCT_NAME} does not receive or store your full card number.`,
            'Promo codes are checked at checkout. A code that is invalid or expired is not applied.',
          ],
        },
        {
          heading: 'Cancellation and refunds',
          paragraphs: [
            'You can cancel at any time on the Subscription page by choosing Downgrade to Free. Cancelling stops future charges and moves your account to the Free plan.',
            'Subscription payments are non-refundable, except where a refund is required by law.',
            `If we change the price of a paid plan, we tell you at least ${LEGAL.termsChangeNoticeDays} days before the new price applies, so that you can cancel before it takes effect.`,
          ],
        },
      ],
    },
    {
      id: 'using-the-service',
      heading: 'Using the service',
      paragraphs: [
        `We give you a personal, non-exclusive, non-transferable right to stream the music on ${PRODUCT_NAME} for your own non-commercial use, and, on the Premium plan, to download tracks for offline playback inside the app. Offline downloads remain part of the service; they are not copies you own.`,
        'When you use the service you agree not to:',
      ],
      items: [
        'copy, record, rip or redistribute audio, cover art or lyrics from the service, except where the rights holder allows it;',
        'inflate play counts, for example with scripts, bots or repeated automated playback;',
        'access the service through automated means other than the app, or try to get around plan limits, upload limits or security measures;',
        'interfere with the service, other users or our systems;',
        'use the service in breach of our Community Guidelines or the law.',
      ],
    },
    {
      id: 'your-content',
      heading: 'Content you upload',
      paragraphs: [
        'You keep ownership of the music, cover art, lyrics and other material you upload. You grant us a non-exclusive, worldwide license to host, store, convert, stream, display and make that material available to other users as part of the service, as described in our Music Licensing terms.',
        'You may upload only music that you own or have licensed, with permission for every part of it, including samples, vocals and artwork. Uploading material that infringes the rights of others is a breach of these terms and of our Copyright Policy.',
        'New uploads are shown as Pending review until a moderator has reviewed them. We may remove content that breaks these terms, our Community Guidelines or the law.',
      ],
    },
    {
      id: 'artist-earnings',
      heading: 'Artist earnings and payouts',
      paragraphs: [
        `Artists earn ${PAYOUT.ratePer1000PlaysEur} EUR for every 1,000 counted plays of their tracks. ${PRODUCT_NAME} keeps no platform fee: 100% of this rate goes to the artist. Which plays count is explained in our Music Licensing terms.`,
        `You can withdraw your balance once it reaches at least ${PAYOUT.minimumWithdrawalEur} EUR, by ${PAYOUT.methods.join(' or ')}. Withdrawals are processed ${PAYOUT.processing} and normally arrive within ${PAYOUT.businessDays} business days after processing.`,
        `We announce any change to the per-play rate at least ${PAYOUT.rateChangeNoticeDays} days before it takes effect. Earnings credited before the change keep their original value. We may withhold or reverse earnings from plays that were inflated artificially or from content removed for infringement.`,
      ],
    },
    {
      id: 'moderation-and-enforcement',
      heading: 'Moderation and enforcement',
      paragraphs: [
        `We review reports within ${LEGAL.reportReviewHours} hours. When content or behavior breaks these terms or our Community Guidelines, we act in steps: first a warning together with removal of the content, then a temporary suspension of ${LEGAL.suspensionDays} days, then a permanent ban. Serious or illegal violations can lead directly to suspension or a ban.`,
        `You can appeal a moderation decision within ${LEGAL.appealWindowDays} days by writing to ${COMMUNITY_EMAIL}. We respond to appeals within ${LEGAL.appealResponseBusinessDays} business days.`,
      ],
    },
    {
      id: 'availability-and-liability',
      heading: 'Availability and liability',
      paragraphs: [
        'We work to keep the service available and secure, but we cannot promise that it will be uninterrupted or free of errors. The catalog changes over time: artists may remove tracks and we may remove content that breaks our rules.',
        'To the extent permitted by law, we are not liable for indirect or consequential loss, or for loss of content you did not keep a copy of. Nothing in these terms excludes or limits liability that cannot be excluded or limited by law, including liability for intent, gross negligence, or death or personal injury caused by negligence.',
      ],
    },
    {
      id: 'ending-your-account',
      heading: 'Ending your account',
      paragraphs: [
        `You can stop using ${PRODUCT_NAME} at any time. To close your account and delete your data, write to ${SUPPORT_EMAIL}. If you are an artist, withdraw any balance of ${PAYOUT.minimumWithdrawalEur} EUR or more before you close your account.`,
        'We may suspend or close an account as set out under Moderation and enforcement, or when the law requires it.',
      ],
    },
    {
      id: 'changes-to-these-terms',
      heading: 'Changes to these terms',
      paragraphs: [
        `We tell you about material changes to these terms at least ${LEGAL.termsChangeNoticeDays} days before they take effect, by email or with a notice in the app. If you do not agree with a change, you can cancel your subscription and close your account before it takes effect.`,
        `Questions about these terms can be sent to ${LEGAL_EMAIL}.`,
      ],
    },
  ],
  contact: { email: LEGAL_EMAIL, responseTime: `${LEGAL.dmcaAcknowledgementHours} hours` },
};
