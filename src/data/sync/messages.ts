/** What the user is told when the server rejects a queued write (spec 8's words). */
import type { OutboxOp } from '../db';

export const REJECTION_MESSAGES: Record<OutboxOp, string | null> = {
  'like.add': 'Failed to like track',
  'like.remove': 'Failed to unlike track',
  'follow.add': 'Failed to follow user',
  'follow.remove': 'Failed to unfollow user',
  'playlist.create': 'Failed to create playlist',
  'playlist.update': 'Failed to update playlist',
  'playlist.delete': 'Failed to delete playlist',
  'playlist.add_track': 'Failed to add track to playlist',
  'playlist.remove_track': 'Failed to update playlist',
  'playlist.reorder': 'Failed to update playlist',
  'lyrics.save': 'Failed to save lyrics',
  'profile.update': 'Profile update failed',
  // Spec 8: history errors are only logged.
  'play.record': null,
  'play.offline': null,
};
