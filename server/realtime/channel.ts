/**
 * One joined channel (`realtime:<name>`) of one socket: its token, its postgres_changes
 * subscriptions, its broadcast and presence settings.
 */
import { randomUUID } from 'node:crypto';
import type { JwtClaims } from '../keys/keys';
import type { Policies } from './authorization';
import type { PgSubscription, Viewer } from './changes';

export interface ChannelConfig {
  broadcastSelf: boolean;
  broadcastAck: boolean;
  presenceEnabled: boolean;
  presenceKey: string;
  isPrivate: boolean;
}

/** Public and private channels of one name are two topics (as Realtime's tenant topics are). */
export function memberKey(topic: string, isPrivate: boolean): string {
  return `${isPrivate ? 'private' : 'public'}:${topic}`;
}

export class Channel {
  /** Unique on this node: its presence row's owner (cluster.ts). */
  readonly id = randomUUID();
  readonly viewer: Viewer;
  readonly subscriptions: PgSubscription[] = [];
  /** When the channel's token expires (ms since epoch). */
  expiresAt: number;
  token: string;
  /** presence: tracked under config.presenceKey. */
  tracked = false;
  /** Last tracked state: the same state again is not re-broadcast. */
  trackedState: string | null = null;
  /** A private channel's policies on realtime.messages (null on a public channel). */
  policies: Policies | null = null;

  constructor(
    readonly topic: string,
    readonly joinRef: string | null,
    readonly config: ChannelConfig,
    claims: JwtClaims,
    token: string,
    expiresAt: number,
  ) {
    this.viewer = { claims };
    this.token = token;
    this.expiresAt = expiresAt;
  }

  /** The topic without its `realtime:` prefix, as system messages name the channel. */
  get name(): string {
    return this.topic.replace(/^realtime:/, '');
  }

  /** Its topic among the server's channels: public and private channels of a name differ. */
  get memberKey(): string {
    return memberKey(this.topic, this.config.isPrivate);
  }

  /** Whether it receives presence state and diffs (private: the presence read policy). */
  get mayReadPresence(): boolean {
    return !this.config.isPrivate || this.policies?.presence.read === true;
  }

  get userId(): string | null {
    const sub = this.viewer.claims.sub;
    return typeof sub === 'string' ? sub : null;
  }
}
