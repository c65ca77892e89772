import type { LegalDocument } from '../legal-types';
import { LEGAL, PRIVACY_EMAIL, PRODUCT_NAME } from '../../../lib/constants';
import { getPlan } from '../../../lib/plans';

const years = (n: number): string => `${n} ${n === 1 ? 'year' : 'years'}`;

export const cookiePolicy: LegalDocument = {
  slug: 'cookie-policy',
  title: 'Cookie Policy',
  lastUpdated: '2026-11-01',
  summary: `This policy explains which cookies and similar browser storage ${PRODUCT_NAME} uses, what they are for and how you can control them. By default we use no third-party tracking.`,
  sections: [
    {
      id: 'what-this-covers',
      heading: 'What this policy covers',
      paragraphs: [
        'Cookies are small text files that a website stores in your browser. Websites and web apps can also keep data in other browser storage: local storage, an in-browser database (IndexedDB) and a cache for files used by the service worker. This policy covers all of them.',
        `${PRODUCT_NAME} is an installable web app that keeps working when your connection drops. Most of what it stores on your device exists for that purpose: to keep you signed in, to remember your player and to make your library available offline.`,
      ],
    },
    {
      id: 'storage-we-use',
      heading: 'Storage the app uses',
      paragraphs: [
        'All of the following is strictly necessary for the features you use. It stays on your device and is not used to track you.',
      ],
      subsections: [
        {
          heading: 'Local storage',
          items: [
            'Your sign-in session: the access and refresh tokens that keep you logged in. They are removed when you sign out.',
            "Player state, stored under the name 'music-player-storage': the current track, your queue, volume, playback position and the repeat and shuffle settings, so that playback can continue where you left it.",
            'Interface preferences, such as whether you have hidden the sidebar.',
          ],
        },
        {
          heading: 'Offline library',
          items: [
            'An in-browser database with a copy of the tracks, likes, playlists, lyrics and profiles you have loaded, so that pages open quickly and work offline.',
            'Changes you make while offline, such as likes and playlist edits, are kept there until they have been sent to our servers.',
          ],
        },
        {
          heading: 'Cached files',
          items: [
            'The files that make up the app, so that it starts without a connection and updates cleanly when a new version is released.',
            `On the ${getPlan('premium').name} plan, the tracks you download for offline listening, kept in a separate cache on your device until you remove them or they are no longer available to you.`,
          ],
        },
      ],
    },
    {
      id: 'cookies',
      heading: 'Cookies',
      paragraphs: [
        `Any cookie ${PRODUCT_NAME} sets is strictly necessary for security or for a feature you have asked for. Session cookies are deleted when you close your browser. Persistent cookies expire after at most ${years(LEGAL.persistentCookieMaxYears)}.`,
        'We do not use analytics or advertising cookies by default, and we do not allow third parties to track you across websites through our app.',
      ],
    },
    {
      id: 'third-party-services',
      heading: 'Third-party services',
      items: [
        "Sign in with Google: when you choose Continue with Google, you sign in on a Google page, which sets Google cookies under Google's own cookie policy.",
        'Payments: when you subscribe, the script and checkout page of our card payment provider are loaded. The provider may set cookies needed for secure payment and fraud prevention, under its own cookie policy.',
      ],
    },
    {
      id: 'advertising',
      heading: 'Advertising',
      paragraphs: [
        `Users on the ${getPlan('free').name} plan see promotions. By default these are ${PRODUCT_NAME}'s own promotions and use no cookies or tracking.`,
        `If we ever work with an advertising partner, we will update this policy first and ask for your consent before any marketing cookie is set. Marketing cookies would expire after at most ${years(LEGAL.marketingCookieMaxYears)}, and you could withdraw your consent at any time.`,
      ],
    },
    {
      id: 'managing-storage',
      heading: 'Managing cookies and storage',
      paragraphs: [
        'You can view and delete cookies and site data in your browser settings. Signing out removes your session from the device.',
        `If you clear all site data for ${PRODUCT_NAME}, your offline library and offline downloads are deleted from that device, and changes made offline that have not yet been synced are lost. Go online and let the app sync before clearing data.`,
      ],
    },
    {
      id: 'changes-and-contact',
      heading: 'Changes and contact',
      paragraphs: [
        `We update this policy when the app starts to store something new. Questions about cookies and storage can be sent to ${PRIVACY_EMAIL}; we reply within ${LEGAL.responseHours.privacy} hours.`,
      ],
    },
  ],
  contact: { email: PRIVACY_EMAIL, responseTime: `${LEGAL.responseHours.privacy} hours` },
};
