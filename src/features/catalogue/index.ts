/** Shared domain UI every screen uses (the one feature other features may import). */
export { CoverArt, type CoverArtProps } from './cover-art';
export { TrackList, type TrackListProps } from './track-list';
export { TrackOptionsMenu, type TrackOptionsMenuProps } from './track-options-menu';
export { PlaylistCard, trackCountLabel } from './playlist-card';
export { addTrackToPlaylist } from './add-to-playlist';
export { albumLabel, toPlayerTrack, toPlayerTracks } from './to-player-track';
export { useCurrentUserId } from './use-current-user-id';
export { PersonAvatar, initialsOf, type PersonAvatarProps } from './person-avatar';
export { FollowButton, type FollowButtonProps } from './follow-button';
export { DownloadButton, type DownloadButtonProps } from './download-button';
export { DownloadQualityControl } from './download-quality-control';
export { Highlighted, SearchHitText, hitHref, hitSubtitle, KIND_LABEL } from './search-hit';
