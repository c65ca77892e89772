/** The track page (spec 2): /track/{trackId}. The route passes the lyrics section in as a slot. */
export { TrackPage, type TrackPageProps } from './track-page';
