/**
 * The relevance test set (issue 33, docs/search.md "Relevance"): queries over the demo
 * catalogue with the result a listener means, as `kind:name`. Run by
 * tests/search/relevance.test.ts (CI) and printed by `npm run bench -- search`.
 * Goals: the expected result first for ≥ 85 % of the queries, in the top 5 for ≥ 95 %.
 */
export type RelevanceCategory =
  | 'exact'
  | 'prefix'
  | 'one typo'
  | 'two typos'
  | 'swapped words'
  | 'diacritics'
  | 'artist only'
  | 'album only'
  | 'playlist'
  | 'lyrics line';

export interface RelevanceCase {
  query: string;
  expect: string;
  category: RelevanceCategory;
}

const c = (category: RelevanceCategory, query: string, expect: string): RelevanceCase => ({
  query,
  expect,
  category,
});

export const RELEVANCE_SET: readonly RelevanceCase[] = [
  // Exact titles.
  c('exact', 'Harbor Lights', 'track:Harbor Lights'),
  c('exact', 'kettle on', 'track:Kettle On'),
  c('exact', 'Fog Over Shallow Water', 'track:Fog Over Shallow Water'),
  c('exact', 'doors at ten', 'track:Doors at Ten'),
  c('exact', 'Isobar', 'track:Isobar'),
  c('exact', 'boss rush', 'track:Boss Rush'),
  c('exact', 'the river keeps time', 'track:The River Keeps Time'),
  c('exact', 'Blue Hour', 'track:Blue Hour'),
  c('exact', 'mirror dance', 'track:Mirror Dance'),
  // Prefixes, as typed.
  c('prefix', 'harb', 'track:Harbor Lights'),
  c('prefix', 'kett', 'track:Kettle On'),
  c('prefix', 'umbr', 'track:Umbrella Math'),
  c('prefix', 'snowl', 'track:Snowlight'),
  c('prefix', 'brick', 'track:Brickdust'),
  c('prefix', 'northb', 'track:Northbound'),
  c('prefix', 'tram stop d', 'track:Tram Stop Daydream'),
  c('prefix', 'late bus h', 'track:Late Bus Home'),
  c('prefix', 'woodsm', 'track:Woodsmoke'),
  c('prefix', 'afterglow b', 'track:Afterglow Boulevard'),
  // One typo.
  c('one typo', 'papr lanterns', 'track:Paper Lanterns'),
  c('one typo', 'harbr lights', 'track:Harbor Lights'),
  c('one typo', 'kettel on', 'track:Kettle On'),
  c('one typo', 'barometr', 'track:Barometer'),
  c('one typo', 'glasshuse', 'track:Glasshouse'),
  c('one typo', 'cider pres', 'track:Cider Press'),
  c('one typo', 'secret levle', 'track:Secret Level'),
  c('one typo', 'storm drian', 'track:Storm Drain'),
  c('one typo', 'chrome horizn', 'track:Chrome Horizon'),
  c('one typo', 'kilnwork', 'artist:Kilnworks'),
  // Two typos (words of 8+ letters).
  c('two typos', 'snowlihgt', 'track:Snowlight'),
  c('two typos', 'northbuond', 'track:Northbound'),
  c('two typos', 'woodsmkoe', 'track:Woodsmoke'),
  c('two typos', 'subteranne', 'artist:Subterrane'),
  c('two typos', 'afterglwo bouelvard', 'track:Afterglow Boulevard'),
  c('two typos', 'harbor lites', 'track:Harbor Lights'),
  // Words in any order.
  c('swapped words', 'lights harbor', 'track:Harbor Lights'),
  c('swapped words', 'math umbrella', 'track:Umbrella Math'),
  c('swapped words', 'water shallow fog', 'track:Fog Over Shallow Water'),
  c('swapped words', 'thaw long', 'track:The Long Thaw'),
  c('swapped words', 'ferry night', 'track:Night Ferry'),
  c('swapped words', 'meridian velvet', 'artist:Velvet Meridian'),
  // Diacritics and case folded.
  c('diacritics', 'Nëon Härbor', 'artist:Neon Harbor'),
  c('diacritics', 'GLÄSSHOUSE', 'track:Glasshouse'),
  c('diacritics', 'cìty blööm', 'track:City Bloom'),
  c('diacritics', 'Pàper Lánterns', 'track:Paper Lanterns'),
  c('diacritics', 'ÍSOBAR', 'track:Isobar'),
  // Artists.
  c('artist only', 'neon harbor', 'artist:Neon Harbor'),
  c('artist only', 'moss & static', 'artist:Moss & Static'),
  c('artist only', 'aurora fieldnotes', 'artist:Aurora Fieldnotes'),
  c('artist only', 'larkspur', 'artist:The Larkspur Thread'),
  c('artist only', 'pixel orchard', 'artist:Pixel Orchard'),
  c('artist only', 'juniper', 'artist:Juniper Vale'),
  c('artist only', 'subterrane', 'artist:Subterrane'),
  // Albums.
  c('album only', 'midnight transit', 'album:Midnight Transit'),
  c('album only', 'rainy window sessions', 'album:Rainy Window Sessions'),
  c('album only', 'slow weather', 'album:Slow Weather'),
  c('album only', 'warehouse sunday', 'album:Warehouse Sunday'),
  c('album only', 'pressure systems', 'album:Pressure Systems'),
  c('album only', 'rainy window', 'album:Rainy Window Sessions'),
  // Playlists.
  c('playlist', 'late night drive', 'playlist:Late Night Drive'),
  c('playlist', 'kitchen dance party', 'playlist:Kitchen Dance Party'),
  c('playlist', 'focus study', 'playlist:Focus & Study'),
  c('playlist', 'sunday morning coffee', 'playlist:Sunday Morning Coffee'),
  // A line of lyrics.
  c('lyrics line', 'carry me home', 'track:Harbor Lights'),
  c('lyrics line', 'steam on the glass', 'track:Kettle On'),
  c('lyrics line', 'everybody here is local', 'track:Sunday Social'),
  c('lyrics line', 'every streetlamp a violet pin', 'track:Harbor Lights'),
  c('lyrics line', 'folded paper candle small', 'track:Paper Lanterns'),
  c('lyrics line', 'we carved our names', 'track:Hollow Oak'),
  c('lyrics line', 'cold outside the windows', 'track:Glasshouse'),
];
