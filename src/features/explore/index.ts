/** /explore: browse and search the whole catalogue. */
export { ExplorePage, type ExplorePageProps } from './explore-page';
