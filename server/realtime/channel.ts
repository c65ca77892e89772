/**
 * One joined channel (`realtime:<name>`) of one socket: its token, its postgres_changes
 * subscriptions, its broadcast and presence settings.
 */
import type { JwtClaims } from '../keys/keys';
import type { PgSubscription, Viewer } from './changes';

export interface ChannelConfig {
  broadcastSelf: boolean;
  broadcastAck: boolean;
  presenceEnabled: boolean;
  presenceKey: string;
  isPrivate: boolean;
}

export class Channel {
  readonly viewer: Viewer;
  readonly subscriptions: PgSubscription[] = [];
  /** When the channel's token expires (ms since epoch). */
  expiresAt: number;
  token: string;
  /** presence: tracked under config.presenceKey. */
  tracked = false;
  /** Last tracked state: the same state again is not re-broadcast. */
  trackedState: string | null = null;

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

  get userId(): string | null {
    const sub = this.viewer.claims.sub;
    return typeof sub === 'string' ? sub : null;
  }
}
