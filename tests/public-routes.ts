/** Every public route of spec section 2, with its h1 and strings a visitor must see. */
export interface PublicRoute {
  path: string;
  heading: string | RegExp;
  title: string | RegExp;
  strings: string[];
}

export const PUBLIC_ROUTES: PublicRoute[] = [
  {
    path: '/',
    heading: 'Music that goes where you go.',
    title: /^Soundloft/,
    strings: [
      'Sign Up Free',
      'Support us on Product Hunt',
      'Compare all plans',
      'Our mission: fair music, everywhere',
    ],
  },
  {
    path: '/comparison',
    heading: 'Compare plans',
    title: 'Compare plans · Soundloft',
    strings: [
      'Sign Up for Free',
      'Explore All Plans',
      'Back to Landing',
      '4.99 EUR',
      '9.99 EUR',
      'Typical streaming service',
    ],
  },
  {
    path: '/faq',
    heading: 'Frequently Asked Questions',
    title: 'FAQ · Soundloft',
    strings: ['Contact support'],
  },
  {
    path: '/changelog',
    heading: 'Platform Updates',
    title: 'Platform Updates · Soundloft',
    strings: [
      'V2.0.0',
      'Major Platform Overhaul',
      'Coming Soon',
      'Mobile app',
      'Live streaming',
      'AI recommendations',
      'Stay Updated',
      'Subscribe',
    ],
  },
  {
    path: '/payment-failed',
    heading: 'Payment Failed',
    title: 'Payment Failed · Soundloft',
    strings: ['billing details'],
  },
  {
    path: '/payment-approved',
    heading: 'Payment Successful',
    title: 'Payment Successful · Soundloft',
    strings: ['Go to Home'],
  },
  {
    path: '/terms-of-service',
    heading: 'Terms of Service',
    title: 'Terms of Service · Soundloft',
    strings: ['Back to Home', 'Back to Top'],
  },
  {
    path: '/privacy-policy',
    heading: 'Privacy Policy',
    title: 'Privacy Policy · Soundloft',
    strings: ['Back to Home', 'Back to Top'],
  },
  {
    path: '/copyright-policy',
    heading: 'Copyright Policy',
    title: 'Copyright Policy · Soundloft',
    strings: ['Back to Home', 'Back to Top', '24-48 hours'],
  },
  {
    path: '/community',
    heading: 'Community Guidelines',
    title: 'Community Guidelines · Soundloft',
    strings: ['Back to Home', 'Back to Top', '7-30 days'],
  },
  {
    path: '/cookie-policy',
    heading: 'Cookie Policy',
    title: 'Cookie Policy · Soundloft',
    strings: ['Back to Home', 'Back to Top', 'music-player-storage'],
  },
  {
    path: '/music-licensing',
    heading: 'Music Licensing',
    title: 'Music Licensing · Soundloft',
    strings: ['Back to Home', 'Back to Top'],
  },
  {
    path: '/accessibility-statement',
    heading: 'Accessibility Statement',
    title: 'Accessibility Statement · Soundloft',
    strings: ['Back to Home', 'Back to Top', 'WCAG 2.1 AA'],
  },
];
