/**
 * The demo catalogue as plain data: users, tracks (with their musical seed, plays and lyrics),
 * covers, playlists, follows, likes and listening history. Pure and deterministic; the seeder
 * turns it into rows and the generator into audio and images.
 */
import { ARTISTS } from './content/artists';
import { LYRICS, type LyricsDef } from './content/lyrics';
import { DEMO_ACCOUNTS, FOLLOWS, LIKES, PLAYLISTS } from './content/social';
import { GENRES, type GenreId } from './music/genres';
import { Prng } from './prng';

export type UserRole = 'admin' | 'listener' | 'premium' | 'artist' | 'catalogue-artist';

export interface CatalogueUser {
  key: string;
  name: string;
  /** null: the admin, whose address comes from ADMIN_EMAILS. */
  email: string | null;
  role: UserRole;
  plan: 'free' | 'premium';
  bio: string | null;
  social: Record<string, string>;
  /** Catalogue artists get a generated avatar; demo listeners keep the initials fallback. */
  avatar: boolean;
  joinedDaysAgo: number;
}

export interface CatalogueTrack {
  key: string;
  title: string;
  artistKey: string;
  artistName: string;
  album: string | null;
  genre: GenreId;
  /** tracks.genre */
  genreLabel: string;
  /** Target length; the rendered length is returned by the generator. */
  seconds: number;
  /** Seed of the music. */
  seed: string;
  coverKey: string;
  lyrics: LyricsDef | null;
  verified: boolean;
  plays: number;
  /** Release: days before the seeding, plus minutes to keep album order. */
  daysAgo: number;
  minuteOffset: number;
}

export interface CatalogueCover {
  key: string;
  title: string;
  artistName: string;
  genre: GenreId;
}

export interface Catalogue {
  users: CatalogueUser[];
  tracks: CatalogueTrack[];
  covers: CatalogueCover[];
  playlists: {
    owner: string;
    name: string;
    description: string;
    tracks: string[];
    daysAgo: number;
  }[];
  follows: [string, string][];
  likes: { user: string; track: string }[];
  history: { user: string; track: string; minutesAgo: number }[];
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The full catalogue, or the first `limit` tracks (round-robin over artists) for tests. */
export function buildCatalogue(opts: { limit?: number } = {}): Catalogue {
  const rng = new Prng('soundloft-demo-catalogue');
  const all: CatalogueTrack[] = [];
  const covers: CatalogueCover[] = [];
  const users: CatalogueUser[] = [];
  for (const artist of ARTISTS) {
    const oldest = Math.max(...artist.releases.map((r) => r.daysAgo));
    users.push({
      key: artist.key,
      name: artist.name,
      email: artist.email ?? `${artist.key}@artists.soundloft.local`,
      role: artist.email ? 'artist' : 'catalogue-artist',
      plan: 'free',
      bio: artist.bio,
      social: artist.social as Record<string, string>,
      avatar: true,
      joinedDaysAgo: oldest + 14 + rng.int(0, 60),
    });
    for (const release of artist.releases) {
      const coverKey = `${artist.key}/${slug(release.album ?? release.tracks[0]?.title ?? 'single')}`;
      covers.push({
        key: coverKey,
        title: release.album ?? release.tracks[0]?.title ?? '',
        artistName: artist.name,
        genre: release.tracks[0]?.genre ?? artist.genre,
      });
      release.tracks.forEach((track, i) => {
        const genre = track.genre ?? artist.genre;
        const factor = release.album && i === 0 ? 1.7 : rng.range(0.45, 1.25);
        all.push({
          key: `${artist.key}/${slug(track.title)}`,
          title: track.title,
          artistKey: artist.key,
          artistName: artist.name,
          album: release.album,
          genre,
          genreLabel: GENRES[genre].label,
          seconds: track.seconds,
          seed: `soundloft-demo/${artist.key}/${track.title}`,
          coverKey,
          lyrics: LYRICS[track.title] ?? null,
          verified: !track.pending,
          plays: track.pending ? 0 : Math.round(artist.popularity * factor * rng.range(0.9, 1.1)),
          daysAgo: release.daysAgo,
          minuteOffset: release.tracks.length - i,
        });
      });
    }
  }
  for (const account of DEMO_ACCOUNTS) {
    users.push({
      key: account.key,
      name: account.name,
      email: account.email,
      role: account.key,
      plan: account.plan,
      bio: account.bio,
      social: {},
      avatar: false,
      joinedDaysAgo: 60 + rng.int(0, 30),
    });
  }

  const tracks = opts.limit === undefined ? all : roundRobin(all, opts.limit);
  const byTitle = new Map(tracks.map((t) => [t.title, t]));
  const has = (title: string) => byTitle.has(title);
  const usedCovers = new Set(tracks.map((t) => t.coverKey));
  const playlists = PLAYLISTS.map((p) => ({ ...p, tracks: p.tracks.filter(has) }));
  const likes = Object.entries(LIKES).flatMap(([user, titles]) =>
    titles.filter(has).map((track) => ({ user, track })),
  );

  // Listening history of the last week: mostly what each user likes or put in a playlist.
  const history: Catalogue['history'] = [];
  const listeners: [string, number][] = [
    ['listener', 28],
    ['premium', 34],
    ['juniper-vale', 10],
    ['moss-and-static', 6],
    ['neon-harbor', 5],
    ['kilnworks', 5],
  ];
  const verifiedTitles = tracks.filter((t) => t.verified).map((t) => t.title);
  for (const [user, count] of listeners) {
    const favourites = [
      ...likes.filter((l) => l.user === user).map((l) => l.track),
      ...playlists.filter((p) => p.owner === user).flatMap((p) => p.tracks),
    ].filter((title) => byTitle.get(title)?.artistKey !== user);
    const own = new Set(tracks.filter((t) => t.artistKey === user).map((t) => t.title));
    const pool = verifiedTitles.filter((title) => !own.has(title));
    if (pool.length === 0) continue;
    let minutesAgo = rng.int(3, 40);
    for (let i = 0; i < count; i++) {
      const track =
        favourites.length > 0 && rng.chance(0.7) ? rng.pick(favourites) : rng.pick(pool);
      history.push({ user, track, minutesAgo });
      minutesAgo += rng.int(4, 420);
    }
  }

  return {
    users,
    tracks,
    covers: covers.filter((c) => usedCovers.has(c.key)),
    playlists,
    follows: FOLLOWS,
    likes,
    history,
  };
}

function roundRobin(tracks: CatalogueTrack[], limit: number): CatalogueTrack[] {
  const byArtist = new Map<string, CatalogueTrack[]>();
  for (const t of tracks) byArtist.set(t.artistKey, [...(byArtist.get(t.artistKey) ?? []), t]);
  const out: CatalogueTrack[] = [];
  for (let round = 0; out.length < limit && out.length < tracks.length; round++) {
    for (const list of byArtist.values()) {
      const t = list[round];
      if (t && out.length < limit) out.push(t);
    }
  }
  return out;
}
