/** What the sync engine needs from the backend (src/data/remote/sync-remote.ts implements it). */
import type { OutboxOp } from '../db';

export interface WireMutation {
  id: string;
  op: OutboxOp;
  user_id: string;
  args: Record<string, unknown>;
}

export interface MutationResult {
  id: string;
  status: 'applied' | 'rejected';
  code?: string | null;
  message?: string | null;
  duplicate?: boolean;
}

/** Server tables the engine reads. */
export type RemoteTable =
  | 'tracks'
  | 'playlists'
  | 'liked_tracks'
  | 'followers'
  | 'track_lyrics'
  | 'withdrawals'
  | 'listening_history'
  | 'sync_deletions';

export interface SelectQuery {
  table: RemoteTable;
  columns?: string;
  eq?: [column: string, value: string][];
  in?: [column: string, values: string[]];
  /** Rows with column >= value (the checkpoint minus the overlap). */
  gte?: [column: string, value: string];
  /** Keyset paging: rows after (at, id) in (orderBy, tieBreak) order. */
  after?: { at: string; id: string };
  orderBy?: string;
  tieBreak?: string;
  descending?: boolean;
  limit?: number;
}

export interface ProfileBundle {
  profile: Record<string, unknown> | null;
  /** profiles_private of the signed-in user (email, balance, plan, monthly uploads). */
  private: Record<string, unknown> | null;
}

/** Every method throws a RemoteError (errors.ts) on failure. */
export interface SyncRemote {
  /** The user id of the session requests are sent with, or null when signed out. */
  currentUserId(): Promise<string | null>;
  /** Refreshes the access token; false when the session cannot be refreshed. */
  refreshSession(): Promise<boolean>;
  applyMutations(clientId: string, mutations: WireMutation[]): Promise<MutationResult[]>;
  select(query: SelectQuery): Promise<Record<string, unknown>[]>;
  profile(userId: string, withPrivate: boolean): Promise<ProfileBundle>;
}
