/** RLS matrix cases of the content tables: profiles, tracks, lyrics, likes, playlists, follows, history. */
import { ALL_DENIED, ALL_OK, type Case } from './types';

export const CONTENT_CASES: Record<string, Case[]> = {
  profiles: [
    {
      name: 'select public columns',
      sql: (f) => ['select id, name, subscription_plan from profiles where id = $1', [f.owner.id]],
      expect: ALL_OK,
    },
    {
      name: 'select email/balance/stripe_customer_id',
      sql: (f) => [
        'select email, balance, stripe_customer_id from profiles where id = $1',
        [f.owner.id],
      ],
      expect: ALL_DENIED,
    },
    {
      name: 'select * (private columns included)',
      sql: (f) => ['select * from profiles where id = $1', [f.owner.id]],
      expect: ALL_DENIED,
    },
    {
      name: 'update bio',
      sql: (f) => [`update profiles set bio = 'x' where id = $1`, [f.owner.id]],
      expect: ['denied', 'ok', 'hidden', 'ok'],
    },
    {
      name: 'delete',
      sql: (f) => ['delete from profiles where id = $1', [f.owner.id]],
      expect: ALL_DENIED,
    },
  ],
  profiles_private: [
    {
      name: 'select',
      sql: (f) => ['select email, balance from profiles_private where id = $1', [f.owner.id]],
      expect: ['denied', 'ok', 'hidden', 'ok'],
    },
    {
      name: 'update',
      sql: (f) => ['update profiles_private set balance = 100 where id = $1', [f.owner.id]],
      expect: ALL_DENIED,
    },
  ],
  tracks: [
    {
      name: 'select',
      sql: (f) => ['select * from tracks where id = $1', [f.trackO]],
      expect: ALL_OK,
    },
    {
      name: 'insert as owner',
      sql: (f) => [
        `insert into tracks (title, artist, audio_url, uploaded_by) values ('T', 'A', $2, $1)`,
        [f.owner.id, `tracks/${f.audioO}`],
      ],
      expect: ['denied', 'ok', 'denied', 'denied'],
    },
    {
      name: 'update title',
      sql: (f) => [`update tracks set title = 'New' where id = $1`, [f.trackO]],
      expect: ['denied', 'ok', 'hidden', 'ok'],
    },
    {
      name: 'delete',
      sql: (f) => ['delete from tracks where id = $1', [f.trackO]],
      expect: ['denied', 'ok', 'hidden', 'ok'],
    },
  ],
  track_lyrics: [
    {
      name: 'select',
      sql: (f) => ['select * from track_lyrics where track_id = $1', [f.trackO]],
      expect: ALL_OK,
    },
    {
      name: 'insert',
      sql: (f) => [
        `insert into track_lyrics (track_id, lyrics) values ($1, '[{"text":"la","timestamp":0}]')`,
        [f.trackO2],
      ],
      expect: ['denied', 'ok', 'denied', 'ok'],
    },
    {
      name: 'update',
      sql: (f) => [`update track_lyrics set is_synced = true where track_id = $1`, [f.trackO]],
      expect: ['denied', 'ok', 'hidden', 'ok'],
    },
    {
      name: 'delete',
      sql: (f) => ['delete from track_lyrics where track_id = $1', [f.trackO]],
      expect: ['denied', 'ok', 'hidden', 'ok'],
    },
  ],
  liked_tracks: [
    {
      name: 'select',
      sql: (f) => ['select * from liked_tracks where id = $1', [f.likeO]],
      expect: ['denied', 'ok', 'hidden', 'ok'],
    },
    {
      name: 'insert',
      sql: (f) => [
        'insert into liked_tracks (user_id, track_id) values ($1, $2)',
        [f.owner.id, f.trackO],
      ],
      expect: ['denied', 'ok', 'denied', 'denied'],
    },
    {
      name: 'update',
      sql: (f) => ['update liked_tracks set track_id = $2 where id = $1', [f.likeO, f.trackO]],
      expect: ALL_DENIED,
    },
    {
      name: 'delete',
      sql: (f) => ['delete from liked_tracks where id = $1', [f.likeO]],
      expect: ['denied', 'ok', 'hidden', 'hidden'],
    },
  ],
  playlists: [
    {
      name: 'select',
      sql: (f) => ['select * from playlists where id = $1', [f.playlistO]],
      expect: ALL_OK,
    },
    {
      name: 'insert',
      sql: (f) => [`insert into playlists (name, created_by) values ('P', $1)`, [f.owner.id]],
      expect: ['denied', 'ok', 'denied', 'denied'],
    },
    {
      name: 'update',
      sql: (f) => [`update playlists set name = 'Renamed' where id = $1`, [f.playlistO]],
      expect: ['denied', 'ok', 'hidden', 'hidden'],
    },
    {
      name: 'delete',
      sql: (f) => ['delete from playlists where id = $1', [f.playlistO]],
      expect: ['denied', 'ok', 'hidden', 'ok'],
    },
  ],
  followers: [
    {
      name: 'select',
      sql: (f) => ['select * from followers where follower_id = $1', [f.owner.id]],
      expect: ALL_OK,
    },
    {
      name: 'insert',
      sql: (f) => [
        'insert into followers (follower_id, following_id) values ($1, $2)',
        [f.owner.id, f.admin.id],
      ],
      expect: ['denied', 'ok', 'denied', 'denied'],
    },
    {
      name: 'update',
      sql: (f) => [
        'update followers set following_id = $2 where follower_id = $1',
        [f.owner.id, f.admin.id],
      ],
      expect: ALL_DENIED,
    },
    {
      name: 'delete',
      sql: (f) => [
        'delete from followers where follower_id = $1 and following_id = $2',
        [f.owner.id, f.other.id],
      ],
      expect: ['denied', 'ok', 'hidden', 'ok'],
    },
  ],
  listening_history: [
    {
      name: 'select',
      sql: (f) => ['select * from listening_history where id = $1', [f.historyO]],
      expect: ['denied', 'ok', 'hidden', 'ok'],
    },
    {
      name: 'insert',
      sql: (f) => [
        'insert into listening_history (user_id, track_id) values ($1, $2)',
        [f.owner.id, f.trackX],
      ],
      expect: ['denied', 'ok', 'denied', 'denied'],
    },
    {
      name: 'update',
      sql: (f) => [
        'update listening_history set track_id = $2 where id = $1',
        [f.historyO, f.trackO],
      ],
      expect: ALL_DENIED,
    },
    {
      name: 'delete',
      sql: (f) => ['delete from listening_history where id = $1', [f.historyO]],
      expect: ['denied', 'ok', 'hidden', 'hidden'],
    },
  ],
};
