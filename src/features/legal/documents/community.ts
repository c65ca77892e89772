import type { LegalDocument } from '../legal-types';
import { COMMUNITY_EMAIL, LEGAL, LEGAL_EMAIL, PRODUCT_NAME } from '../../../lib/constants';

export const community: LegalDocument = {
  slug: 'community',
  title: 'Community Guidelines',
  lastUpdated: '2026-11-01',
  summary: `${PRODUCT_NAME} is a place for artists to share their music and for listeners to discover it. These guidelines describe what is allowed, how to report problems and what happens when the rules are broken.`,
  sections: [
    {
      id: 'scope',
      heading: 'Where these guidelines apply',
      paragraphs: [
        `These guidelines apply to everything you add to ${PRODUCT_NAME}: tracks, cover art, lyrics, track and album titles, playlist names and descriptions, your profile name, avatar, bio and social links. They also apply to how you interact with other users.`,
        'They add to our Terms of Service. Breaking them can lead to removal of content and to restrictions on your account.',
      ],
    },
    {
      id: 'respect-others',
      heading: 'Respect other people',
      items: [
        'Do not harass, bully, threaten or intimidate anyone.',
        'Do not attack people for their ethnicity, nationality, religion, gender, sexual orientation, disability, age or similar characteristics.',
        'Do not impersonate other artists, people or organizations, or use a profile name or avatar that suggests you are someone you are not.',
        "Do not publish other people's private information, such as addresses, phone numbers or private email addresses.",
      ],
    },
    {
      id: 'uploading-music',
      heading: 'Uploading music',
      items: [
        'Upload only music you own or have licensed, including any samples, beats, vocals and cover art.',
        'Use accurate titles, artist names, album names and genres. Do not use misleading metadata to gain plays.',
        'Lyrics you add must belong to the track and be yours or licensed to you.',
        'Do not upload the same track repeatedly, silence, noise or other filler to use up space or collect plays.',
        'New uploads are marked Pending review until a moderator has reviewed them.',
      ],
    },
    {
      id: 'fair-plays',
      heading: 'Fair plays and earnings',
      paragraphs: [
        'Artists are paid for real listening. Do not use bots, scripts, looping devices, paid play services or groups of accounts to increase play counts, and do not ask others to do so. Plays from your own account never count toward your earnings.',
        'Artificial plays are removed from play counts, the related earnings are withheld and the accounts involved are subject to the enforcement steps below.',
      ],
    },
    {
      id: 'prohibited-content',
      heading: 'Content that is not allowed',
      items: [
        'Content that is illegal in the European Union or in the country where it is published.',
        'Sexual content involving minors, in any form. We report it to the authorities.',
        'Content that promotes terrorism, violent extremism or violence against people.',
        'Sexually explicit images in cover art, avatars or playlist covers.',
        'Spam, scams, links to malware and misleading links in bios or social links.',
        'Content that infringes copyright or other rights. Rights holders should use the process in our Copyright Policy.',
      ],
    },
    {
      id: 'reporting',
      heading: 'Reporting a problem',
      paragraphs: [
        `To report a track, profile, playlist or behavior that breaks these guidelines, email ${COMMUNITY_EMAIL} with the link to the content and a short description of the problem. We review reports within ${LEGAL.reportReviewHours} hours.`,
        `Copyright complaints follow a separate process: send them to ${LEGAL_EMAIL} as described in our Copyright Policy.`,
      ],
    },
    {
      id: 'enforcement',
      heading: 'What happens when the rules are broken',
      paragraphs: [
        'We apply the following steps. Serious violations, such as illegal content, can lead directly to a suspension or a permanent ban.',
      ],
      items: [
        'First violation: a warning, and the content is removed.',
        `Second violation: a temporary suspension of ${LEGAL.suspensionDays} days, depending on the severity.`,
        'Further violations: a permanent ban.',
      ],
    },
    {
      id: 'appeals',
      heading: 'Appeals',
      paragraphs: [
        `If you think we made a mistake, you can appeal within ${LEGAL.appealWindowDays} days of the decision. Email ${COMMUNITY_EMAIL} from the address of your account, say which decision you are appealing and why.`,
        `We review the appeal again in full and respond within ${LEGAL.appealResponseBusinessDays} business days. If the appeal succeeds, we restore the content or lift the restriction.`,
      ],
    },
  ],
  contact: { email: COMMUNITY_EMAIL, responseTime: `${LEGAL.responseHours.community} hours` },
};
