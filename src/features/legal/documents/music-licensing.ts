import type { LegalDocument } from '../legal-types';
import { FILE_LIMITS, LEGAL, LICENSING_EMAIL, PAYOUT, PRODUCT_NAME } from '../../../lib/constants';
import { getPlan } from '../../../lib/plans';

const premium = getPlan('premium');
/** 'a, b or c' */
const orList = (items: readonly string[]): string =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
const imageFormats = orList(
  FILE_LIMITS.imageMimeTypes.map((type) => type.replace('image/', '').toUpperCase()),
);

export const musicLicensing: LegalDocument = {
  slug: 'music-licensing',
  title: 'Music Licensing',
  lastUpdated: '2026-11-01',
  summary: `How music gets onto ${PRODUCT_NAME}, which rights artists keep and grant, how plays are counted and paid, and what listeners may do with the music.`,
  sections: [
    {
      id: 'overview',
      heading: 'Overview',
      paragraphs: [
        `Every track on ${PRODUCT_NAME} is uploaded by an artist or by someone acting for them. Artists keep ownership of their music and grant us only the rights we need to run the service. Listeners receive a personal license to stream it.`,
      ],
    },
    {
      id: 'rights-you-need',
      heading: 'Rights you need before uploading',
      paragraphs: [
        'You may upload only music that you own or have licensed. Before uploading a track, make sure you hold, or have permission for, all of the following:',
      ],
      items: [
        'the sound recording (the master);',
        'the composition and lyrics, including permission from co-writers and publishers where needed;',
        'any samples, loops, beats or vocals by other people that the track contains;',
        'a license for the composition if the track is a cover version;',
        'the cover image you upload with the track.',
      ],
    },
    {
      id: 'license-you-grant',
      heading: 'The license you grant us',
      paragraphs: [
        `By uploading, you grant ${PRODUCT_NAME} a non-exclusive, worldwide license, for as long as the track is on the service, to:`,
      ],
      items: [
        'store and host the audio, cover image and lyrics;',
        'convert the audio into the formats and quality levels our plans offer, and analyze it to display playback information;',
        `stream the track to users, and make it available for offline playback in the app to ${premium.name} subscribers;`,
        'display the track, its cover and its lyrics on track, artist, playlist, search and recommendation pages;',
        'separate the audio into stems when a user of the app requests it.',
      ],
      subsections: [
        {
          heading: 'What the license does not include',
          paragraphs: [
            'We do not sell your music, license it to third parties or use it in advertising for other companies. The license is non-exclusive: you are free to publish and sell your music anywhere else.',
          ],
        },
      ],
    },
    {
      id: 'ownership-and-removal',
      heading: 'Ownership, credits and removal',
      paragraphs: [
        'You keep all rights in your music, artwork and lyrics. Enter accurate titles, artist names and album names so that listeners and rights holders can identify your work.',
        `You can ask us to remove a track you uploaded at any time by emailing ${LICENSING_EMAIL}. The license for that track ends when it is removed: we stop streaming it and it can no longer be downloaded for offline listening.`,
      ],
    },
    {
      id: 'what-counts-as-a-play',
      heading: 'What counts as a play',
      items: [
        'A play is counted once per listener, track and listening session.',
        'It counts after 30 seconds of listening, or after the whole track if the track is shorter than 30 seconds.',
        'Plays by the artist who uploaded the track never count.',
        'The number of plays that count per listener and track each day is limited, to keep play counts fair.',
        'Plays from an account in its first hour, or before its email address is confirmed, are held: they count, within the daily limits of the day they were made, once the account is an hour old and its email address is confirmed. Held plays of an account that is banned first never count.',
        'Plays made offline from downloads are counted when the device reconnects.',
      ],
    },
    {
      id: 'earnings',
      heading: 'Earnings',
      paragraphs: [
        `Artists earn ${PAYOUT.ratePer1000PlaysEur} EUR per 1,000 counted plays, which is ${PAYOUT.ratePerPlayEur} EUR per play. ${PRODUCT_NAME} takes no platform fee: 100% of this rate goes to the artist who uploaded the track.`,
        'Each play is credited to your balance as soon as it is counted. Your balance is shown on the Payouts page, rounded to two decimal places.',
        `We announce any change to the per-play rate at least ${PAYOUT.rateChangeNoticeDays} days before it takes effect. Plays counted before the change keep the rate that applied when they were counted.`,
      ],
    },
    {
      id: 'payouts',
      heading: 'Payouts',
      items: [
        `You can request a withdrawal once your balance is at least ${PAYOUT.minimumWithdrawalEur} EUR.`,
        `Choose ${PAYOUT.methods.join(' or ')}. For PayPal, enter your PayPal email address; for a bank transfer, enter the account holder name, IBAN and SWIFT code.`,
        `Withdrawal requests are processed ${PAYOUT.processing}. After processing, the money normally arrives within ${PAYOUT.businessDays} business days.`,
        'Your payout history on the Payouts page shows each request as pending, completed or rejected. If a request is rejected, for example because the payment details are wrong, the amount is returned to your balance.',
        'You are responsible for declaring your earnings and paying any taxes due on them.',
      ],
    },
    {
      id: 'listener-use',
      heading: 'What listeners may do',
      paragraphs: [
        `Listeners may stream music on ${PRODUCT_NAME} for personal, non-commercial use. ${premium.name} subscribers may also download tracks for offline playback in the app. Downloads stay inside the app and are not files you own.`,
        'Playing music in public venues, in broadcasts, or in videos, games and advertisements requires a separate license from the rights holders. Contact the artist directly for such uses; we do not grant these licenses.',
      ],
    },
    {
      id: 'file-requirements',
      heading: 'File requirements',
      paragraphs: [
        `Upload audio as ${orList(FILE_LIMITS.audioFormats)}, up to ${FILE_LIMITS.audioMaxMb} MB per file. Cover images can be ${imageFormats}, up to ${FILE_LIMITS.coverMaxMb} MB, ideally square and at least ${FILE_LIMITS.coverRecommendedPx} x ${FILE_LIMITS.coverRecommendedPx} pixels.`,
        `Licensing questions can be sent to ${LICENSING_EMAIL}; we reply within ${LEGAL.responseHours.licensing} hours.`,
      ],
    },
  ],
  contact: { email: LICENSING_EMAIL, responseTime: `${LEGAL.responseHours.licensing} hours` },
};
