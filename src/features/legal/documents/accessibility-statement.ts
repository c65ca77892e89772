import type { LegalDocument } from '../legal-types';
import { ACCESSIBILITY_EMAIL, LEGAL, PRODUCT_NAME } from '../../../lib/constants';

export const accessibilityStatement: LegalDocument = {
  slug: 'accessibility-statement',
  title: 'Accessibility Statement',
  lastUpdated: '2026-11-01',
  summary: `${PRODUCT_NAME} should be usable by everyone who wants to listen to or share music. This statement describes the standard we work to, how the app supports assistive technology and where it still falls short.`,
  sections: [
    {
      id: 'our-commitment',
      heading: 'Our commitment',
      paragraphs: [
        `We aim to meet the Web Content Accessibility Guidelines (WCAG) 2.1 at level AA (${LEGAL.accessibilityTarget}) across the ${PRODUCT_NAME} website and the installable web app, including the public pages, sign-in, the player, the library, uploads and payouts.`,
        'The app partially meets this standard. The known gaps are listed below, and we fix accessibility problems as part of our regular releases.',
      ],
    },
    {
      id: 'keyboard-access',
      heading: 'Keyboard access',
      items: [
        'Every link, button, menu and form field can be reached with the Tab key and used with Enter or Space, in a logical order and with a visible focus indicator.',
        'The player controls, including play and pause, previous and next, repeat, shuffle, like, mute, the volume slider and the progress bar, work with the keyboard. The sliders respond to the arrow keys.',
        'Menus, the queue panel, dialogs and the full-screen now-playing view can be closed with the Escape key or a Close button, and focus returns to where you were.',
        'Media keys on your keyboard and the playback controls on your lock screen or notification area control playback where your device supports them.',
      ],
    },
    {
      id: 'screen-readers',
      heading: 'Screen readers and labels',
      items: [
        'Buttons that show only an icon, such as the player controls and the row options menu, have text labels for screen readers.',
        'Form fields have visible labels, and validation errors are shown next to the field in text.',
        'Short status messages, such as Link copied! and upload progress, are announced to screen readers.',
        'Pages use headings and landmarks, so you can move between the sidebar, the main content and the player.',
        'Cover images and avatars are described by the name of the track, playlist or person they belong to.',
      ],
    },
    {
      id: 'lyrics-and-audio',
      heading: 'Lyrics and audio content',
      paragraphs: [
        'Synced lyrics work much like captions for music: when an artist has added timed lyrics, the current line is highlighted as the track plays and the view follows it. Lyrics are plain text, so screen readers can read them and you can enlarge them with browser zoom.',
        'The lyrics panel can be expanded to show more lines at once, so you can also read the whole text at your own pace.',
      ],
    },
    {
      id: 'visual-design',
      heading: 'Visual design',
      items: [
        'Text and controls are designed to meet the WCAG contrast requirements for level AA.',
        'Pages are designed to work at 200% zoom and on narrow screens without loss of content or function.',
        'Information is never shown by color alone. For example, payout statuses are written out as pending, completed or rejected.',
      ],
    },
    {
      id: 'known-limitations',
      heading: 'Known limitations',
      items: [
        'Lyrics are added by artists. Many tracks have no lyrics yet, and timings in synced lyrics can be imprecise.',
        'Cover art and avatars uploaded by users have no detailed text description beyond the name of the track, playlist or person.',
        'On the Free plan, a promotion can open in a pop-up after a time, after you scroll or when you move toward leaving the page. It can be closed with its Close button, and it does not appear on paid plans.',
        'The desktop sidebar can be resized only by dragging its edge. It has a usable default width and can be hidden with a button.',
        'The full-screen now-playing view can be closed by dragging it down; the Close button does the same for keyboard and screen-reader users.',
      ],
    },
    {
      id: 'feedback',
      heading: 'Feedback and reporting problems',
      paragraphs: [
        `If you find a part of ${PRODUCT_NAME} you cannot use, or you need content in another format, email ${ACCESSIBILITY_EMAIL}. Tell us the page address, what you were trying to do, and the browser and assistive technology you use. We reply within ${LEGAL.responseHours.accessibility} hours.`,
        'If you are not satisfied with our reply, you can contact the authority responsible for enforcing accessibility requirements in your country.',
      ],
    },
  ],
  contact: {
    email: ACCESSIBILITY_EMAIL,
    responseTime: `${LEGAL.responseHours.accessibility} hours`,
  },
};
