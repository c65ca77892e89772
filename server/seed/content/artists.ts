/**
 * The demo catalogue's artists, albums and tracks. Every name, bio and title here is invented
 * for Soundloft's demo; any likeness to a real artist is a coincidence.
 */
import type { GenreId } from '../music/genres';

export interface TrackDef {
  title: string;
  /** Target length in seconds (the rendered song is a little longer: whole bars plus a tail). */
  seconds: number;
  /** Overrides the artist's genre. */
  genre?: GenreId;
  /** Pending review (verified = false) — new uploads for the admin's moderation queue. */
  pending?: boolean;
}

export interface ReleaseDef {
  /** Album title; null for a single (shown as 'Single'). */
  album: string | null;
  daysAgo: number;
  tracks: TrackDef[];
}

export interface ArtistDef {
  key: string;
  name: string;
  /** Demo account e-mail for the demo artist; catalogue artists get `<key>@artists.soundloft.local`. */
  email?: string;
  genre: GenreId;
  bio: string;
  social: { twitter?: string; instagram?: string; spotify?: string };
  /** Typical plays of one of this artist's tracks. */
  popularity: number;
  releases: ReleaseDef[];
}

const t = (title: string, seconds: number, extra: Partial<TrackDef> = {}): TrackDef => ({
  title,
  seconds,
  ...extra,
});

export const ARTISTS: ArtistDef[] = [
  {
    key: 'neon-harbor',
    name: 'Neon Harbor',
    genre: 'synthwave',
    bio: 'Neon Harbor is a fictional synthwave duo who score imaginary night drives along a coast that exists only on cassette. Their songs are built from analogue-style pads, pulsing bass and a lead line that always sounds like it is leaving town.',
    social: { twitter: 'https://example.org/neonharbor' },
    popularity: 42000,
    releases: [
      {
        album: 'Midnight Transit',
        daysAgo: 210,
        tracks: [
          t('Harbor Lights', 42),
          t('Chrome Horizon', 30),
          t('Night Ferry', 30),
          t('Afterglow Boulevard', 30),
        ],
      },
      { album: null, daysAgo: 45, tracks: [t('Tidal Memory', 30)] },
    ],
  },
  {
    key: 'moss-and-static',
    name: 'Moss & Static',
    genre: 'lofi',
    bio: 'Moss & Static is an invented bedroom producer who records rain on the window and then writes chords to match it. Expect dusty drums, warm electric piano and the crackle of a record that has been loved too much.',
    social: { instagram: 'https://example.org/mossandstatic' },
    popularity: 61000,
    releases: [
      {
        album: 'Rainy Window Sessions',
        daysAgo: 150,
        tracks: [
          t('Kettle On', 42),
          t('Umbrella Math', 30),
          t('Tram Stop Daydream', 30),
          t('Library Hours', 30),
        ],
      },
      { album: null, daysAgo: 20, tracks: [t('Late Bus Home', 30)] },
    ],
  },
  {
    key: 'aurora-fieldnotes',
    name: 'Aurora Fieldnotes',
    genre: 'ambient',
    bio: 'Aurora Fieldnotes is a fictional ambient project about weather that moves slowly. Long pads, distant bells and a great deal of reverb, made for reading, sleeping or staring out of train windows.',
    social: {},
    popularity: 9000,
    releases: [
      {
        album: 'Slow Weather',
        daysAgo: 320,
        tracks: [
          t('Fog Over Shallow Water', 45),
          t('Barometer', 30),
          t('Snowlight', 30),
          t('The Long Thaw', 30),
        ],
      },
    ],
  },
  {
    key: 'kilnworks',
    name: 'Kilnworks',
    genre: 'house',
    bio: 'Kilnworks is an imaginary house producer who learned to count to four on a warehouse floor. Organ stabs, offbeat bass and claps that land exactly where your shoulders expect them.',
    social: {
      twitter: 'https://example.org/kilnworks',
      spotify: 'https://example.org/kilnworks/music',
    },
    popularity: 27000,
    releases: [
      {
        album: 'Warehouse Sunday',
        daysAgo: 120,
        tracks: [
          t('Doors at Ten', 30),
          t('Brickdust', 30),
          t('Sunday Social', 42),
          t('Last Train Stomp', 30),
        ],
      },
      { album: null, daysAgo: 12, tracks: [t('Kiln Fire', 30)] },
    ],
  },
  {
    key: 'larkspur-thread',
    name: 'The Larkspur Thread',
    genre: 'folk',
    bio: 'The Larkspur Thread is a made-up folk trio who play fingerpicked patterns under an oak tree that may or may not exist. Their songs are small, warm and best heard with the window open.',
    social: { instagram: 'https://example.org/larkspurthread' },
    popularity: 14000,
    releases: [
      {
        album: 'Hollow Oak',
        daysAgo: 260,
        tracks: [
          t('Hollow Oak', 42),
          t('Cider Press', 30),
          t('The River Keeps Time', 30),
          t('Lantern Path', 30),
          t('Woodsmoke', 30),
        ],
      },
    ],
  },
  {
    key: 'subterrane',
    name: 'Subterrane',
    genre: 'dnb',
    bio: 'Subterrane is a fictional drum & bass producer who writes at 172 beats per minute and thinks in tunnels. Rolling breaks, a growling reese bass and pads that open up like a station platform.',
    social: { twitter: 'https://example.org/subterrane' },
    popularity: 19000,
    releases: [
      {
        album: 'Pressure Systems',
        daysAgo: 90,
        tracks: [t('Low Front', 30), t('Deep Line', 30), t('Isobar', 30), t('Storm Drain', 30)],
      },
      { album: null, daysAgo: 30, tracks: [t('Northbound', 30)] },
    ],
  },
  {
    key: 'pixel-orchard',
    name: 'Pixel Orchard',
    genre: 'chiptune',
    bio: 'Pixel Orchard is an invented chiptune artist who composes for games nobody has made yet. Square-wave melodies, fast arpeggios and drums from a noise channel, all in glorious 8-bit colour.',
    social: {},
    popularity: 8000,
    releases: [
      {
        album: 'Save Point',
        daysAgo: 180,
        tracks: [t('Save Point', 30), t('Boss Rush', 30), t('Secret Level', 30)],
      },
      { album: null, daysAgo: 2, tracks: [t('Extra Life', 30, { pending: true })] },
    ],
  },
  {
    key: 'velvet-meridian',
    name: 'Velvet Meridian',
    genre: 'synthwave',
    bio: 'Velvet Meridian is a fictional synth-pop singer-producer who mixes glossy pads with dance-floor rhythms. Songs about glasshouses, city lights and the minute before the chorus.',
    social: { spotify: 'https://example.org/velvetmeridian' },
    popularity: 5500,
    releases: [
      {
        album: 'Glasshouse',
        daysAgo: 60,
        tracks: [
          t('Glasshouse', 42),
          t('Mirror Dance', 30, { genre: 'house' }),
          t('City Bloom', 30),
        ],
      },
      {
        album: null,
        daysAgo: 1,
        tracks: [t('Meridian Line', 30, { genre: 'house', pending: true })],
      },
    ],
  },
  {
    key: 'juniper-vale',
    name: 'Juniper Vale',
    email: 'artist@soundloft.local',
    genre: 'folk',
    bio: 'Juniper Vale is the demo artist account of Soundloft: a fictional songwriter who moves between fingerpicked folk and lo-fi sketches. Sign in as this artist to upload, edit lyrics and try a payout.',
    social: {
      twitter: 'https://example.org/junipervale',
      instagram: 'https://example.org/junipervale/photos',
    },
    popularity: 1500,
    releases: [
      {
        album: 'Paper Lanterns',
        daysAgo: 75,
        tracks: [
          t('Paper Lanterns', 42),
          t('Porch Light', 30, { genre: 'lofi' }),
          t('Orchard Road', 30),
        ],
      },
      { album: null, daysAgo: 25, tracks: [t('Blue Hour', 30, { genre: 'lofi' })] },
      { album: null, daysAgo: 0, tracks: [t('First Frost (Demo)', 30, { pending: true })] },
    ],
  },
];
