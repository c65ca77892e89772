export { ArtistPage } from './artist-page';
