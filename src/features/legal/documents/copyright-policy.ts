import type { LegalDocument } from '../legal-types';
import { COMMUNITY_EMAIL, LEGAL, LEGAL_EMAIL, PRODUCT_NAME } from '../../../lib/constants';

export const copyrightPolicy: LegalDocument = {
  slug: 'copyright-policy',
  title: 'Copyright Policy',
  lastUpdated: '2026-11-01',
  summary: `${PRODUCT_NAME} respects the rights of musicians, songwriters and labels. This policy explains how to report content that infringes your copyright, how we handle notices and how uploaders can respond.`,
  sections: [
    {
      id: 'our-approach',
      heading: 'Our approach',
      paragraphs: [
        `Artists may upload to ${PRODUCT_NAME} only music, cover art and lyrics that they own or have licensed. We handle copyright notices under EU law and, for rights holders who use it, the notice and counter-notification procedure of the US Digital Millennium Copyright Act (DMCA).`,
        `Send all copyright notices and counter-notifications to ${LEGAL_EMAIL}.`,
      ],
    },
    {
      id: 'filing-a-notice',
      heading: 'Filing a takedown notice',
      paragraphs: [
        `If you believe content on ${PRODUCT_NAME} infringes a copyright you own or represent, send us a takedown notice that includes:`,
      ],
      items: [
        'your full name, postal address, telephone number and email address;',
        'a description of the copyrighted work, such as the song title, the recording and the rights holder;',
        `the link to each track, profile or playlist on ${PRODUCT_NAME} that you want removed;`,
        'a statement that you believe in good faith that the use is not authorized by the rights holder, its agent or the law;',
        'a statement that the information in the notice is accurate and that you are the rights holder or authorized to act on their behalf;',
        'your physical or electronic signature.',
      ],
    },
    {
      id: 'how-we-handle-notices',
      heading: 'How we handle notices',
      items: [
        `We acknowledge every complete notice within ${LEGAL.dmcaAcknowledgementHours} hours.`,
        `If the notice is valid, we remove or disable access to the content within ${LEGAL.dmcaRemovalBusinessDays} business days.`,
        'We inform the uploader that the content was removed, with a copy or summary of the notice and information on how to file a counter-notification.',
        'If a notice is incomplete, we ask you for the missing information before we act on it.',
        'Earnings from plays of removed content may be withheld while a dispute is open.',
      ],
    },
    {
      id: 'counter-notification',
      heading: 'Counter-notification',
      paragraphs: [
        'If you uploaded content that was removed and you believe the removal was a mistake or that you have the right to use the material, you can send a counter-notification that includes:',
      ],
      items: [
        'your full name, postal address, telephone number and email address;',
        'the title of the removed content and the link where it appeared;',
        'a statement that you believe in good faith that the content was removed by mistake or misidentification;',
        'your consent to the jurisdiction of the competent courts and to accept service of legal process from the person who sent the original notice;',
        'your physical or electronic signature.',
      ],
    },
    {
      id: 'restoration',
      heading: 'Restoring content',
      paragraphs: [
        'We forward a valid counter-notification to the person who sent the original notice.',
        `If we do not receive notice that they have started legal action to keep the content off ${PRODUCT_NAME} within ${LEGAL.counterNoticeRestoreBusinessDays} business days after the counter-notification, we restore the content and any withheld earnings.`,
      ],
    },
    {
      id: 'repeat-infringers',
      heading: 'Repeat infringers',
      paragraphs: [
        `Each valid notice counts as a violation of our rules. The first leads to a warning together with removal of the content, the next to a temporary suspension of ${LEGAL.suspensionDays} days, and further violations to a permanent ban.`,
        `You can appeal a decision within ${LEGAL.appealWindowDays} days by writing to ${COMMUNITY_EMAIL}. We respond within ${LEGAL.appealResponseBusinessDays} business days.`,
      ],
    },
    {
      id: 'misuse',
      heading: 'False notices and counter-notifications',
      paragraphs: [
        'Sending a notice or counter-notification that you know to be false can make you liable for damages, including costs and legal fees. If you are unsure whether material infringes your rights, consider taking legal advice before you send a notice.',
        'For licensing questions that are not takedown requests, see our Music Licensing terms.',
      ],
    },
  ],
  contact: { email: LEGAL_EMAIL, responseTime: `${LEGAL.dmcaAcknowledgementHours} hours` },
};
