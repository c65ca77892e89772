/** Lyrics (spec 2, 4, 5): the track page's lyrics section, view mode and the lyrics studio. */
export { LyricsSection, EMPTY_LYRICS, LOAD_FAILED } from './lyrics-section';
