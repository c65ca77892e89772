/**
 * Demo accounts and the social layer of the demo catalogue: playlists, follows and likes.
 * Tracks are named by their title (titles are unique in the catalogue).
 */

export interface DemoAccountDef {
  key: 'admin' | 'listener' | 'premium';
  /** The admin's address comes from ADMIN_EMAILS (its first entry). */
  email: string | null;
  name: string;
  plan: 'free' | 'premium';
  bio: string | null;
}

export const DEMO_PASSWORD = 'soundloft-demo';

export const DEMO_ACCOUNTS: DemoAccountDef[] = [
  { key: 'admin', email: null, name: 'Soundloft Admin', plan: 'free', bio: null },
  {
    key: 'listener',
    email: 'listener@soundloft.local',
    name: 'Lena Listener',
    plan: 'free',
    bio: 'Demo listener on the free plan. Night drives, rainy days and anything with a good bassline.',
  },
  {
    key: 'premium',
    email: 'premium@soundloft.local',
    name: 'Pablo Premium',
    plan: 'premium',
    bio: 'Demo listener on the premium plan: lossless, offline, no ads.',
  },
];

export interface PlaylistDef {
  /** Creator: a demo account key or an artist key. */
  owner: string;
  name: string;
  description: string;
  tracks: string[];
  daysAgo: number;
}

export const PLAYLISTS: PlaylistDef[] = [
  {
    owner: 'listener',
    name: 'Late Night Drive',
    description: 'Synths, city lights and rolling breaks for the empty motorway after midnight.',
    tracks: [
      'Harbor Lights',
      'Chrome Horizon',
      'Glasshouse',
      'Low Front',
      'Night Ferry',
      'Isobar',
      'City Bloom',
      'Tidal Memory',
    ],
    daysAgo: 40,
  },
  {
    owner: 'premium',
    name: 'Focus & Study',
    description: 'Soft beats and slow weather: music that stays out of the way while you work.',
    tracks: [
      'Kettle On',
      'Library Hours',
      'Barometer',
      'Umbrella Math',
      'Snowlight',
      'Porch Light',
      'Tram Stop Daydream',
      'Fog Over Shallow Water',
      'Blue Hour',
    ],
    daysAgo: 33,
  },
  {
    owner: 'premium',
    name: 'Sunday Morning Coffee',
    description: 'Fingerpicked guitars, warm keys and a second cup.',
    tracks: [
      'Hollow Oak',
      'Cider Press',
      'Paper Lanterns',
      'Kettle On',
      'Lantern Path',
      'Orchard Road',
      'Woodsmoke',
    ],
    daysAgo: 18,
  },
  {
    owner: 'listener',
    name: 'Kitchen Dance Party',
    description:
      'Four to the floor, organ stabs and a few 8-bit surprises. Turn it up while you cook.',
    tracks: [
      'Sunday Social',
      'Doors at Ten',
      'Mirror Dance',
      'Boss Rush',
      'Brickdust',
      'Save Point',
      'Kiln Fire',
      'Last Train Stomp',
    ],
    daysAgo: 9,
  },
  {
    owner: 'juniper-vale',
    name: 'Fresh Finds',
    description: 'One track from every artist on Soundloft right now, picked by Juniper Vale.',
    tracks: [
      'Tidal Memory',
      'Late Bus Home',
      'The Long Thaw',
      'Kiln Fire',
      'The River Keeps Time',
      'Northbound',
      'Secret Level',
      'Glasshouse',
      'Paper Lanterns',
    ],
    daysAgo: 4,
  },
];

/** [follower, following] by account or artist key. */
export const FOLLOWS: [string, string][] = [
  ['listener', 'neon-harbor'],
  ['listener', 'moss-and-static'],
  ['listener', 'kilnworks'],
  ['listener', 'subterrane'],
  ['listener', 'juniper-vale'],
  ['listener', 'premium'],
  ['premium', 'moss-and-static'],
  ['premium', 'aurora-fieldnotes'],
  ['premium', 'larkspur-thread'],
  ['premium', 'juniper-vale'],
  ['premium', 'velvet-meridian'],
  ['premium', 'pixel-orchard'],
  ['premium', 'listener'],
  ['juniper-vale', 'larkspur-thread'],
  ['juniper-vale', 'moss-and-static'],
  ['juniper-vale', 'aurora-fieldnotes'],
  ['neon-harbor', 'velvet-meridian'],
  ['velvet-meridian', 'neon-harbor'],
  ['velvet-meridian', 'kilnworks'],
  ['subterrane', 'kilnworks'],
  ['kilnworks', 'subterrane'],
  ['moss-and-static', 'aurora-fieldnotes'],
  ['aurora-fieldnotes', 'moss-and-static'],
  ['larkspur-thread', 'juniper-vale'],
  ['pixel-orchard', 'neon-harbor'],
];

export const LIKES: Record<string, string[]> = {
  listener: [
    'Harbor Lights',
    'Chrome Horizon',
    'Low Front',
    'Sunday Social',
    'Kettle On',
    'Paper Lanterns',
    'Boss Rush',
    'Tidal Memory',
    'Deep Line',
    'Glasshouse',
  ],
  premium: [
    'Kettle On',
    'Library Hours',
    'Snowlight',
    'Hollow Oak',
    'Cider Press',
    'Fog Over Shallow Water',
    'Porch Light',
    'Blue Hour',
    'Umbrella Math',
    'Save Point',
    'Woodsmoke',
    'Barometer',
    'Paper Lanterns',
  ],
  'juniper-vale': ['Hollow Oak', 'Kettle On', 'The Long Thaw', 'Lantern Path', 'Late Bus Home'],
  'moss-and-static': ['Snowlight', 'Blue Hour'],
  'neon-harbor': ['Glasshouse', 'City Bloom'],
};
