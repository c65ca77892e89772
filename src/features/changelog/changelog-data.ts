import type { ChangelogRelease, ComingSoonItem } from './changelog-types';
import { PAYOUT, PRODUCT_NAME } from '../../lib/constants';
import { getPlan } from '../../lib/plans';

const premium = getPlan('premium');

export const RELEASES: readonly ChangelogRelease[] = [
  {
    version: 'V2.0.0',
    date: '2026-11-01',
    title: 'Major Platform Overhaul',
    description: `${PRODUCT_NAME} 2.0 rebuilds the platform as an installable app that keeps working offline, with a redesigned player, synced lyrics and an earnings dashboard for artists.`,
    icon: 'Rocket',
    color: 'violet',
    features: [
      `Install ${PRODUCT_NAME} on your phone or computer. The app opens without a connection, shows your library, likes and playlists, and syncs your changes when you are back online.`,
      `Offline downloads on the ${premium.name} plan: save tracks to your device and play them anywhere. Plays made offline are counted when you reconnect.`,
      'Synced lyrics that highlight the current line as the song plays, and a lyrics studio where artists add and time the lyrics of their own tracks.',
      'A redesigned player with a full-screen now-playing view, a queue panel, repeat and shuffle, and controls on your lock screen and media keys.',
      `An earnings dashboard for artists with balance, total plays, payout history and withdrawals by ${PAYOUT.methods.join(' or ')}.`,
      'Playlists you can create, edit, share with a link and feature on your profile.',
      'Artist pages with top tracks, albums grouped by release and an About tab.',
      'Friends Activity on the home page: follow people and see what they have been listening to.',
    ],
    improvements: [
      'Pages open faster because your library is kept on your device and updated in the background.',
      'Fairer play counting: a play counts after 30 seconds of listening, once per listener, track and session, and never for the artist who uploaded the track.',
      `Earnings are recorded exactly for every counted play at ${PAYOUT.ratePerPlayEur} EUR, and balances are shown rounded to two decimal places.`,
      'Prices, audio quality and upload limits are now described the same way on every page.',
      'Audio and image files are checked for type and size before uploading, with a clear message when a file does not fit.',
      'Search from the top bar finds tracks by title, artist, album and genre.',
      'The desktop sidebar can be resized and hidden, and remembers whether you hid it.',
    ],
    fixes: [
      'The subscription and comparison pages showed different prices. They now show the same prices.',
      'The monthly upload limit shown on the upload page now matches the limit that is applied.',
      'Unmuting now restores the volume you had before muting.',
      'Returning to a tab after a long break no longer signs you out; your session is refreshed automatically.',
      'After checkout, the payment confirmation page now checks for your new plan and shows its progress while your subscription is updated.',
    ],
  },
];

export const COMING_SOON: readonly ComingSoonItem[] = [
  {
    title: 'Mobile app',
    description: `Native ${PRODUCT_NAME} apps for iOS and Android, alongside the installable web app.`,
  },
  {
    title: 'Live streaming',
    description: 'Artists will be able to stream live performances to their followers.',
  },
  {
    title: 'AI recommendations',
    description:
      'Recommendations that learn from your likes, playlists and listening history, beyond suggestions based on your recently played tracks.',
  },
];
