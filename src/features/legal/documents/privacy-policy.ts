import type { LegalDocument } from '../legal-types';
import { LEGAL, PRIVACY_EMAIL, PRODUCT_NAME } from '../../../lib/constants';

export const privacyPolicy: LegalDocument = {
  slug: 'privacy-policy',
  title: 'Privacy Policy',
  lastUpdated: '2026-11-29',
  summary: `This policy explains what personal data ${PRODUCT_NAME} collects, why we use it, who we share it with and which rights you have under the EU General Data Protection Regulation (GDPR).`,
  sections: [
    {
      id: 'who-we-are',
      heading: 'Who we are',
      paragraphs: [
        `${PRODUCT_NAME} is a Europe-based music streaming and artist-upload service. We are the controller of the personal data described in this policy.`,
        `For any question about your data or to exercise your rights, write to ${PRIVACY_EMAIL}. We reply within ${LEGAL.responseHours.privacy} hours.`,
      ],
    },
    {
      id: 'data-we-collect',
      heading: 'Data we collect',
      subsections: [
        {
          heading: 'Account data',
          items: [
            'Your name, email address and password. Passwords are stored only in hashed form.',
            'If you use Continue with Google: your name, email address and account identifier as provided by Google.',
            'Your plan, your upload count for the current month and the date you joined.',
          ],
        },
        {
          heading: 'Profile and content',
          items: [
            'Your avatar, bio, social links (Twitter, Instagram, Spotify), featured track and featured playlist.',
            'Tracks you upload with their audio files, titles, artist and album names, genres, cover images and lyrics.',
            'Playlists you create, tracks you like and the people you follow.',
          ],
        },
        {
          heading: 'Listening activity',
          items: [
            'Which tracks you play and when. We use this to count plays for artist earnings, to show your recently played tracks and to suggest music.',
            'Offline plays made with Premium downloads, which are sent to us when your device reconnects.',
            'Artists see statistics of how their tracks are played (counts, how far listens go, where they start), never who listened; figures of fewer than 5 listeners are merged with others or not shown.',
          ],
        },
        {
          heading: 'Payments and payouts',
          items: [
            'For subscriptions: your plan, the billing period and the customer reference our card payment provider gives us. Your card details go directly to the payment provider and never reach our servers.',
            'For artist payouts: your balance and earnings records, and the payout details you enter: a PayPal email address, or the account holder name, IBAN and SWIFT code of a bank account.',
          ],
        },
        {
          heading: 'Technical data',
          items: [
            'Session tokens that keep you signed in, and technical request data such as IP address, browser type and time of access, which our servers record for security and troubleshooting.',
            'For each device you are signed in on: its browser, when it was last active and the country of its IP address (nothing more precise, looked up on our own servers without asking anyone else), so that you can recognise your devices in Settings › Security. They are deleted when that device signs out, is signed out from another device, or your account is deleted.',
            'Messages you send to us, for example support, privacy or copyright requests.',
          ],
        },
      ],
    },
    {
      id: 'how-we-use-data',
      heading: 'How we use your data and our legal bases',
      items: [
        'To create and run your account, stream music, store your uploads, playlists and likes, and sync them across your devices. Legal basis: performance of our contract with you.',
        'To count plays, credit artist earnings and pay out withdrawals. Legal basis: performance of our contract with you.',
        'To process subscription payments and keep payment, payout and tax records. Legal basis: performance of our contract and compliance with legal obligations.',
        'To send account emails such as email verification and password reset links. Legal basis: performance of our contract with you.',
        'To email you when someone follows you, unless you turn this off in Settings › Notifications. We send no newsletters or marketing email. Legal basis: our legitimate interest in telling you about activity on your account.',
        'To suggest music based on what you recently played. Legal basis: our legitimate interest in offering relevant recommendations.',
        'To keep the service secure, prevent fraud and artificial plays, moderate content and handle copyright notices. Legal basis: our legitimate interests and compliance with legal obligations.',
        `To show ${PRODUCT_NAME} promotions to Free-plan users. These are our own promotions and do not use tracking across other websites. Legal basis: performance of our contract for the Free plan.`,
      ],
    },
    {
      id: 'what-others-can-see',
      heading: 'What other users can see',
      paragraphs: [
        'Your public profile shows your name, avatar, bio, social links, plan, featured track and playlist, number of uploads and playlists, follower relationships and the month you joined. Your email address is used for sign-in and for messages from us; it is not part of your public profile.',
        'Tracks you upload, with their cover art, lyrics and play counts, are visible to other users. Playlists can be opened by other signed-in users who have the link.',
        'People who follow you can see the tracks you recently listened to in their Friends Activity.',
      ],
    },
    {
      id: 'processors',
      heading: 'Who we share data with',
      paragraphs: [
        'We do not sell your personal data. We share it only with service providers who process it on our behalf and under our instructions:',
      ],
      items: [
        'our hosting and database provider, which stores your account, content and activity data and serves the app;',
        'a card payment provider, which processes subscription payments and your card details;',
        'an email delivery provider, which sends verification, password reset and other account emails.',
      ],
      subsections: [
        {
          heading: 'Other recipients',
          paragraphs: [
            'If you sign in with Google, Google handles the sign-in under its own privacy policy. Artist payouts are paid through PayPal or through banks, which receive the payout details you provide. We disclose data to authorities or rights holders only when the law requires it.',
            'Where a provider processes data outside the European Economic Area, we rely on an adequacy decision or on Standard Contractual Clauses approved by the European Commission.',
          ],
        },
      ],
    },
    {
      id: 'retention',
      heading: 'How long we keep data',
      items: [
        'Account, profile, content and activity data: for as long as your account exists. When you ask us to delete your account, we delete or anonymize this data, except where we must keep it.',
        'Payment, earnings and payout records: for as long as tax and accounting law requires.',
        'Copyright notices, counter-notifications and moderation records: for as long as needed to handle the case, enforce our rules against repeat violations and defend legal claims.',
        'Technical request data: only for as long as needed for security and troubleshooting.',
        'Data stored on your device: until you sign out, clear your browser data or remove downloads, as described in our Cookie Policy.',
      ],
    },
    {
      id: 'your-rights',
      heading: 'Your rights',
      paragraphs: ['Under the GDPR you have the right to:'],
      items: [
        'access the personal data we hold about you and receive a copy;',
        'have inaccurate data corrected. You can edit your name, bio, links and avatar on your profile, and change your email address in Settings, yourself;',
        'have your data deleted;',
        'restrict or object to processing based on our legitimate interests;',
        'receive the data you provided in a portable, machine-readable format;',
        'withdraw any consent you have given, without affecting earlier processing;',
        'lodge a complaint with the data protection authority of your country.',
      ],
      subsections: [
        {
          heading: 'How to exercise your rights',
          paragraphs: [
            `Write to ${PRIVACY_EMAIL} from the email address of your account. We reply within ${LEGAL.responseHours.privacy} hours and complete requests within the time limits set by the GDPR, normally one month.`,
          ],
        },
      ],
    },
    {
      id: 'security-and-children',
      heading: 'Security and children',
      paragraphs: [
        'We protect your data with encrypted connections, hashed passwords and access rules enforced in our database, so that each user can only change their own data. Payment amounts and balances can only be changed by our server.',
        `${PRODUCT_NAME} is not directed at children below the age at which they can consent to data processing in their country. If you believe a child has given us personal data without the required consent, contact ${PRIVACY_EMAIL} and we will delete it.`,
      ],
    },
    {
      id: 'changes-to-this-policy',
      heading: 'Changes to this policy',
      paragraphs: [
        `We tell you about material changes to this policy at least ${LEGAL.termsChangeNoticeDays} days before they take effect, by email or with a notice in the app. The date at the top of this page shows when it was last updated.`,
      ],
    },
  ],
  contact: { email: PRIVACY_EMAIL, responseTime: `${LEGAL.responseHours.privacy} hours` },
};
