/**
 * `/realtime/v1/websocket`: Supabase Realtime's Phoenix-channel protocol on the `ws` package, so
 * `@supabase/realtime-js` (alone or through supabase-js) connects unchanged. See docs/realtime.md.
 */
import type { JwtSecrets } from '../keys/keys';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Database } from '../db/database';
import { checkToken, tokenErrorReason } from './auth';
import { emptyPolicies, mayWrite, readPolicies, type Extension } from './authorization';
import type { ChangePayload, ChangeStream, ChangeType, PgSubscription } from './changes';
import { Channel, memberKey } from './channel';
import { localCluster, type Cluster, type ClusterMessage, type TrackedPresence } from './cluster';
import { FilterError, parseFilter } from './filters';
import { PresenceStore, type PresenceDiff, type PresenceList } from './presence';
import { SESSION_ENDED_CLOSE } from './sessions';
import { BANNED_CLOSE, isBannedAccount } from './sanctions';
import {
  ProtocolError,
  decodeBinary,
  decodeText,
  encode,
  encodeUserBroadcast,
  userBroadcastPayload,
  type Message,
  type UserBroadcast,
  type Vsn,
} from './protocol';

export const REALTIME_PATH = '/realtime/v1/websocket';

export interface RealtimeLimits {
  /** Open sockets on this server (HTTP 429 beyond). */
  maxConnections: number;
  /** Sockets with a channel joined as one user (`sub`). */
  maxConnectionsPerUser: number;
  /** Channels joined on one socket. */
  maxChannelsPerConnection: number;
  /** postgres_changes entries in one join. */
  maxPostgresChangesPerChannel: number;
  /** Largest frame a client may send (bytes); larger closes the socket (1009). */
  maxMessageBytes: number;
  /** Largest broadcast or presence payload (bytes). */
  maxPayloadBytes: number;
  /** Unsent bytes a socket may queue before it is dropped as too slow. */
  maxBufferedBytes: number;
  /** A socket silent for this long (no heartbeat, nothing) is closed. */
  heartbeatTimeoutMs: number;
}

export const DEFAULT_LIMITS: RealtimeLimits = {
  maxConnections: 20_000,
  maxConnectionsPerUser: 20,
  maxChannelsPerConnection: 100,
  maxPostgresChangesPerChannel: 100,
  maxMessageBytes: 1024 * 1024,
  maxPayloadBytes: 256 * 1024,
  maxBufferedBytes: 4 * 1024 * 1024,
  // realtime-js beats every 25 s; a hidden tab's timers may run once a minute (Chrome).
  heartbeatTimeoutMs: 120_000,
};

const EVENTS = new Set(['*', 'INSERT', 'UPDATE', 'DELETE']);

class Connection {
  readonly channels = new Map<string, Channel>();
  lastReceived = Date.now();
  /** Incoming frames are handled one after another (a join awaits the database). */
  queue: Promise<void> = Promise.resolve();
  /** Users this socket counts for (per-user limit). */
  readonly users = new Set<string>();
  closed = false;

  constructor(
    readonly ws: WebSocket,
    readonly vsn: Vsn,
    readonly apiKey: string,
  ) {}
}

export interface RealtimeStats {
  connections: number;
  channels: number;
  subscriptions: number;
  /** Sockets dropped because they did not read fast enough. */
  droppedSlow: number;
  /** Sockets closed after a heartbeat timeout. */
  timedOut: number;
}

export class RealtimeServer {
  readonly #wss: WebSocketServer;
  readonly #secret: JwtSecrets;
  readonly #changes: ChangeStream;
  readonly #db: Database;
  readonly limits: RealtimeLimits;
  readonly #connections = new Set<Connection>();
  readonly #topics = new Map<string, Set<{ conn: Connection; channel: Channel }>>();
  readonly #users = new Map<string, Set<Connection>>();
  readonly #presence = new PresenceStore();
  /** The other nodes (broadcasts and presence); local-only on PGlite. */
  readonly #cluster: Cluster;
  readonly #sweep: NodeJS.Timeout;
  #nextSubscriptionId = 1;
  #droppedSlow = 0;
  #timedOut = 0;
  #draining = false;

  constructor(opts: {
    jwtSecret: JwtSecrets;
    db: Database;
    changes: ChangeStream;
    limits?: Partial<RealtimeLimits>;
    cluster?: Cluster;
  }) {
    this.#cluster = opts.cluster ?? localCluster();
    this.#cluster.onMessage((message) => this.#fromCluster(message));
    this.#cluster.onResync(() => void this.#resyncPresence());
    this.#secret = opts.jwtSecret;
    this.#db = opts.db;
    this.#changes = opts.changes;
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: this.limits.maxMessageBytes,
      perMessageDeflate: false,
      clientTracking: false,
    });
    this.#sweep = setInterval(() => this.#sweepConnections(), 1000);
    this.#sweep.unref();
  }

  stats(): RealtimeStats {
    let channels = 0;
    for (const c of this.#connections) channels += c.channels.size;
    return {
      connections: this.#connections.size,
      channels,
      subscriptions: this.#changes.subscriptionCount,
      droppedSlow: this.#droppedSlow,
      timedOut: this.#timedOut,
    };
  }

  /** The presences tracked on this node (the cluster announces them again after a sweep). */
  *trackedPresences(): Iterable<TrackedPresence> {
    for (const { topic, key, owner, meta } of this.#presence.entries())
      yield { owner: owner.id, topic, key, meta };
  }

  /** A message of another node: delivered to this node's sockets. */
  #fromCluster(message: ClusterMessage): void {
    if (message.kind === 'presence') {
      this.#presenceDiff(message.topic, message.diff);
    } else if (message.kind === 'json') {
      this.#relayJson(message.topic, message.isPrivate, null, message.payload);
    } else {
      this.#relayUser(
        {
          joinRef: null,
          ref: null,
          topic: message.topic,
          userEvent: message.event,
          encoding: message.encoding,
          metadata: message.metadata,
          userPayload: Buffer.from(message.bytes, 'base64'),
        },
        message.isPrivate,
        null,
      );
    }
  }

  /**
   * Sends every presence channel of this node its topic's full state again (diffs of other
   * nodes were missed while the listening connection was down); realtime-js merges a new
   * presence_state into what it has, with joins and leaves for the differences.
   */
  async #resyncPresence(): Promise<void> {
    const states = new Map<string, Promise<PresenceList>>();
    for (const conn of this.#connections) {
      for (const channel of conn.channels.values()) {
        if (!channel.config.presenceEnabled || !channel.mayReadPresence) continue;
        let state = states.get(channel.memberKey);
        if (!state) {
          state = this.#presenceState(channel.memberKey);
          states.set(channel.memberKey, state);
        }
        const list = await state.catch(() => null);
        if (list && conn.channels.get(channel.topic) === channel)
          this.#push(conn, channel, 'presence_state', list);
      }
    }
  }

  /** Relays a broadcast here and on the other nodes. */
  #broadcastJson(topic: string, isPrivate: boolean, skip: Connection | null, payload: unknown) {
    this.#relayJson(topic, isPrivate, skip, payload);
    this.#cluster.send({ kind: 'json', topic, isPrivate, payload });
  }

  #broadcastUser(b: UserBroadcast, isPrivate: boolean, skip: Connection | null): void {
    this.#relayUser(b, isPrivate, skip);
    this.#cluster.send({
      kind: 'user',
      topic: b.topic,
      isPrivate,
      event: b.userEvent,
      encoding: b.encoding,
      metadata: b.metadata,
      bytes: b.userPayload.toString('base64'),
    });
  }

  /** For `server.on('upgrade')`: answers Realtime's path, leaves other paths alone (false). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== REALTIME_PATH) return false;
    const header = req.headers['x-api-key'];
    const apiKey = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey');
    const vsnParam = url.searchParams.get('vsn') ?? '1.0.0';
    const reject = (status: number, error: string) => {
      const body = JSON.stringify({ error });
      socket.end(
        `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 429 ? 'Too Many Requests' : status === 503 ? 'Service Unavailable' : 'Bad Request'}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    if (this.#draining) {
      reject(503, 'Server is restarting');
      return true;
    }
    if (vsnParam !== '1.0.0' && vsnParam !== '2.0.0') {
      reject(400, `Unsupported serializer version ${vsnParam}`);
      return true;
    }
    if (!apiKey) {
      reject(401, 'API key is missing');
      return true;
    }
    if (this.#connections.size >= this.limits.maxConnections) {
      reject(429, 'Too many connected users');
      return true;
    }
    void checkToken(apiKey, this.#secret).then((check) => {
      if (!check.ok) {
        reject(401, check.kind === 'expired' ? 'Token has expired' : check.message);
        return;
      }
      this.#wss.handleUpgrade(req, socket, head, (ws) =>
        this.#open(new Connection(ws, vsnParam, apiKey)),
      );
    });
    return true;
  }

  /**
   * SIGTERM (server/ops/drain.ts): new sockets are refused (503) and the open ones closed with
   * 1012 "service restart". realtime-js (Phoenix's socket) reconnects after any close it did not
   * ask for and rejoins its channels, through the load balancer on another node. Sockets that
   * do not finish the closing handshake within `graceMs` are cut.
   */
  async drain(graceMs = 2000): Promise<void> {
    this.#draining = true;
    await Promise.all(
      [...this.#connections].map(
        (conn) =>
          new Promise<void>((resolve) => {
            if (conn.ws.readyState === conn.ws.CLOSED) return resolve();
            conn.ws.once('close', () => resolve());
            conn.ws.close(1012, 'service restart');
            setTimeout(() => conn.ws.terminate(), graceMs).unref();
          }),
      ),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep);
    for (const conn of this.#connections) conn.ws.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  #open(conn: Connection): void {
    this.#connections.add(conn);
    conn.ws.on('message', (data: RawData, isBinary: boolean) => {
      conn.lastReceived = Date.now();
      conn.queue = conn.queue
        .then(() => this.#onFrame(conn, toBuffer(data), isBinary))
        .catch((error: unknown) => {
          if (error instanceof ProtocolError) conn.ws.close(1003, error.message);
          else console.error('realtime:', error);
        });
    });
    conn.ws.on('close', () => this.#cleanup(conn));
    conn.ws.on('error', () => this.#cleanup(conn));
  }

  /** The users with a socket on this node (sanctions.ts). */
  connectedUsers(): string[] {
    return [...this.#users.keys()];
  }

  /** Closes every socket of one user on this node (a ban: sanctions.ts). */
  closeUser(userId: string): void {
    for (const conn of [...(this.#users.get(userId) ?? [])])
      conn.ws.close(BANNED_CLOSE.code, BANNED_CLOSE.reason);
  }

  /** The auth sessions (the JWTs' session_id) the sockets of one user joined with (sessions.ts). */
  sessionsOfUser(userId: string): string[] {
    const ids = new Set<string>();
    for (const conn of this.#users.get(userId) ?? [])
      for (const channel of conn.channels.values()) {
        const sid = channel.viewer.claims.session_id;
        if (typeof sid === 'string') ids.add(sid);
      }
    return [...ids];
  }

  /** Closes the sockets of one user that joined with one of `sessionIds` (ended sessions). */
  closeSessions(userId: string, sessionIds: readonly string[]): void {
    const ended = new Set(sessionIds);
    for (const conn of [...(this.#users.get(userId) ?? [])]) {
      const joinedWith = [...conn.channels.values()].map((c) => c.viewer.claims.session_id);
      if (joinedWith.some((sid) => typeof sid === 'string' && ended.has(sid)))
        conn.ws.close(SESSION_ENDED_CLOSE.code, SESSION_ENDED_CLOSE.reason);
    }
  }

  #cleanup(conn: Connection): void {
    if (conn.closed) return;
    conn.closed = true;
    this.#connections.delete(conn);
    for (const channel of conn.channels.values()) this.#removeChannel(conn, channel);
    for (const user of conn.users) {
      const set = this.#users.get(user);
      set?.delete(conn);
      if (set?.size === 0) this.#users.delete(user);
    }
  }

  #sweepConnections(): void {
    const now = Date.now();
    for (const conn of this.#connections) {
      if (now - conn.lastReceived > this.limits.heartbeatTimeoutMs) {
        this.#timedOut++;
        conn.ws.close(1000, 'heartbeat timeout');
        setTimeout(() => conn.ws.terminate(), 1000).unref();
        this.#cleanup(conn);
        continue;
      }
      for (const channel of conn.channels.values()) {
        if (channel.expiresAt <= now) {
          const seconds = Math.floor((now - channel.expiresAt) / 1000);
          this.#shutdown(conn, channel, `Token has expired ${seconds} seconds ago`);
        }
      }
    }
  }

  // ---------------------------------------------------------------------------- sending

  #sendRaw(conn: Connection, frame: string | Buffer): void {
    if (conn.closed || conn.ws.readyState !== conn.ws.OPEN) return;
    if (conn.ws.bufferedAmount > this.limits.maxBufferedBytes) {
      // A client that does not read its messages is dropped: the server's memory stays bounded.
      this.#droppedSlow++;
      conn.ws.terminate();
      this.#cleanup(conn);
      return;
    }
    conn.ws.send(frame, { binary: typeof frame !== 'string' });
  }

  #send(conn: Connection, message: Message): void {
    this.#sendRaw(conn, encode(conn.vsn, message));
  }

  #reply(
    conn: Connection,
    request: Message,
    status: 'ok' | 'error',
    response: Record<string, unknown> = {},
  ): void {
    this.#send(conn, {
      joinRef: request.joinRef,
      ref: request.ref,
      topic: request.topic,
      event: 'phx_reply',
      payload: { status, response },
    });
  }

  #push(conn: Connection, channel: Channel, event: string, payload: unknown): void {
    this.#send(conn, { joinRef: channel.joinRef, ref: null, topic: channel.topic, event, payload });
  }

  #system(
    conn: Connection,
    channel: Channel,
    extension: 'system' | 'postgres_changes',
    status: 'ok' | 'error',
    message: string,
  ): void {
    this.#push(conn, channel, 'system', { extension, status, message, channel: channel.name });
  }

  /** Ends a channel from the server's side: the reason as a system error, then phx_close. */
  #shutdown(conn: Connection, channel: Channel, message: string): void {
    this.#system(conn, channel, 'system', 'error', message);
    this.#push(conn, channel, 'phx_close', {});
    this.#removeChannel(conn, channel);
  }

  // ---------------------------------------------------------------------------- receiving

  async #onFrame(conn: Connection, data: Buffer, isBinary: boolean): Promise<void> {
    if (conn.closed) return;
    if (isBinary) {
      if (conn.vsn !== '2.0.0') throw new ProtocolError('binary frames need vsn 2.0.0');
      await this.#onUserBroadcast(conn, decodeBinary(data));
      return;
    }
    const message = decodeText(conn.vsn, data.toString('utf8'));
    if (message.topic === 'phoenix') {
      if (message.event === 'heartbeat') this.#reply(conn, message, 'ok');
      return;
    }
    if (message.event === 'phx_join') {
      await this.#join(conn, message);
      return;
    }
    const channel = conn.channels.get(message.topic);
    if (!channel || (message.joinRef !== null && channel.joinRef !== message.joinRef)) {
      this.#reply(conn, message, 'error', { reason: 'unmatched topic' });
      return;
    }
    const payload = isRecord(message.payload) ? message.payload : {};
    switch (message.event) {
      case 'phx_leave':
        this.#reply(conn, message, 'ok');
        this.#removeChannel(conn, channel);
        return;
      case 'access_token':
        await this.#accessToken(conn, channel, payload.access_token);
        return;
      case 'broadcast':
        await this.#onJsonBroadcast(conn, channel, message, payload);
        return;
      case 'presence':
        await this.#onPresence(conn, channel, message, payload);
        return;
      default:
        return; // Realtime ignores (and logs) unexpected events
    }
  }

  async #join(conn: Connection, message: Message): Promise<void> {
    const { topic } = message;
    const payload = isRecord(message.payload) ? message.payload : {};
    const error = (reason: string) => this.#reply(conn, message, 'error', { reason });
    if (!topic.startsWith('realtime:') || topic === 'realtime:')
      return error('TopicNameRequired: You must provide a topic name');
    const existing = conn.channels.get(topic);
    if (existing) {
      // Phoenix closes the earlier join of the same topic on this socket.
      this.#push(conn, existing, 'phx_close', {});
      this.#removeChannel(conn, existing);
    }
    if (conn.channels.size >= this.limits.maxChannelsPerConnection)
      return error('ChannelRateLimitReached: Too many channels');

    const config = isRecord(payload.config) ? payload.config : {};
    const broadcast = isRecord(config.broadcast) ? config.broadcast : {};
    const presence = isRecord(config.presence) ? config.presence : {};
    const token =
      typeof payload.access_token === 'string' && !payload.access_token.startsWith('sb_')
        ? payload.access_token
        : typeof payload.user_token === 'string'
          ? payload.user_token
          : conn.apiKey;
    const check = await checkToken(token, this.#secret);
    if (!check.ok) return error(tokenErrorReason(check));
    if (conn.closed) return;

    const isPrivate = config.private === true;
    const presenceEnabled = presence.enabled === true;
    // A private channel is joined only by who may read its broadcasts or its presence under the
    // policies on realtime.messages (authorization.ts).
    const policies = isPrivate
      ? await this.#readPolicies(check.claims, topic.slice(9), presenceEnabled)
      : null;
    if (conn.closed) return;
    if (isPrivate && !policies?.broadcast.read && !policies?.presence.read)
      return error(`Unauthorized: ${noReadPermission(topic)}`);

    const sub = typeof check.claims.sub === 'string' ? check.claims.sub : null;
    // A banned account's token may still be valid: the ban is Postgres's (sanctions.ts).
    if (sub && (await isBannedAccount(this.#db, sub))) return error('Unauthorized: account banned');
    if (conn.closed) return;
    if (sub && !conn.users.has(sub)) {
      const sockets = this.#users.get(sub);
      if ((sockets?.size ?? 0) >= this.limits.maxConnectionsPerUser)
        return error('ConnectionRateLimitReached: Too many connected users');
    }

    const rawChanges = Array.isArray(config.postgres_changes) ? config.postgres_changes : [];
    const changes = rawChanges.filter(isRecord);
    if (changes.length > this.limits.maxPostgresChangesPerChannel)
      return error('ChannelRateLimitReached: Too many postgres_changes subscriptions');

    const presenceKey =
      typeof presence.key === 'string' && presence.key !== '' ? presence.key : randomUUID();
    const channel = new Channel(
      topic,
      message.joinRef,
      {
        broadcastSelf: broadcast.self === true,
        broadcastAck: broadcast.ack === true,
        presenceEnabled,
        presenceKey,
        isPrivate,
      },
      check.claims,
      token,
      check.expiresAt,
    );
    channel.policies = policies;

    if (sub) {
      conn.users.add(sub);
      let sockets = this.#users.get(sub);
      if (!sockets) {
        sockets = new Set();
        this.#users.set(sub, sockets);
      }
      sockets.add(conn);
    }
    conn.channels.set(topic, channel);
    let members = this.#topics.get(channel.memberKey);
    if (!members) {
      members = new Set();
      this.#topics.set(channel.memberKey, members);
    }
    members.add({ conn, channel });

    // The reply echoes each postgres_changes entry with the id its messages will carry.
    const response = changes.map((params) => ({ ...params, id: this.#nextSubscriptionId++ }));
    // Subscribed before the reply: a change committed after SUBSCRIBED is never missed.
    const prepared = response.length > 0 ? await this.#prepareChanges(conn, channel, response) : [];
    if (conn.closed || conn.channels.get(topic) !== channel) return;
    if (Array.isArray(prepared)) {
      for (const s of prepared) {
        channel.subscriptions.push(s);
        this.#changes.subscribe(s);
      }
    }
    // Everyone's presence (other nodes' from the database) is read before the reply: diffs that
    // arrive meanwhile are pushed before the state, and realtime-js applies them after it.
    const presenceState =
      channel.config.presenceEnabled && channel.mayReadPresence
        ? await this.#presenceState(channel.memberKey).catch((error: unknown) => {
            console.error('realtime: presence of other nodes:', error);
            return this.#presence.list(channel.memberKey);
          })
        : null;
    if (conn.closed || conn.channels.get(topic) !== channel) return;
    this.#reply(conn, message, 'ok', { postgres_changes: response });
    if (presenceState) this.#push(conn, channel, 'presence_state', presenceState);
    if (typeof prepared === 'string')
      this.#system(conn, channel, 'postgres_changes', 'error', prepared);
    else if (prepared.length > 0)
      this.#system(conn, channel, 'postgres_changes', 'ok', 'Subscribed to PostgreSQL');
  }

  /** The join's postgres_changes as subscriptions, or the error its system message reports. */
  async #prepareChanges(
    conn: Connection,
    channel: Channel,
    entries: (Record<string, unknown> & { id: number })[],
  ): Promise<PgSubscription[] | string> {
    const subscriptions: PgSubscription[] = [];
    try {
      for (const entry of entries) {
        const event = typeof entry.event === 'string' ? entry.event.toUpperCase() : '';
        const schema = typeof entry.schema === 'string' ? entry.schema : '';
        const table =
          typeof entry.table === 'string' && entry.table !== '' && entry.table !== '*'
            ? entry.table
            : undefined;
        const filter = typeof entry.filter === 'string' ? entry.filter : undefined;
        const describe = `[event: ${String(entry.event)}, schema: ${schema}, table: ${table ?? '*'}, filters: ${filter ?? ''}]`;
        if (!EVENTS.has(event) || schema === '')
          throw new Error(`Error parsing \`event\` params: ${describe}`);
        const filters = parseFilter(filter);
        if (filters.length > 0 && !table)
          throw new Error(`Error parsing \`filter\` params: a filter needs a table ${describe}`);
        if (table) {
          const info = await this.#changes.table(schema, table);
          if (!info)
            throw new Error(
              `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: ${describe}`,
            );
          for (const f of filters) {
            if (!info.columns.some((c) => c.name === f.column))
              throw new Error(`invalid column for filter ${f.column}`);
          }
        }
        subscriptions.push({
          id: entry.id,
          event: event as '*' | ChangeType,
          schema,
          ...(table ? { table } : {}),
          filters,
          viewer: channel.viewer,
          group: channel,
          deliver: (data: ChangePayload, ids: number[]) =>
            this.#push(conn, channel, 'postgres_changes', { ids, data }),
        });
      }
    } catch (error) {
      return error instanceof FilterError || error instanceof Error ? error.message : String(error);
    }
    return subscriptions;
  }

  #removeChannel(conn: Connection, channel: Channel): void {
    if (conn.channels.get(channel.topic) !== channel) return;
    conn.channels.delete(channel.topic);
    for (const s of channel.subscriptions) this.#changes.unsubscribe(s);
    channel.subscriptions.length = 0;
    const members = this.#topics.get(channel.memberKey);
    if (members) {
      for (const m of members) if (m.channel === channel) members.delete(m);
      if (members.size === 0) this.#topics.delete(channel.memberKey);
    }
    if (channel.tracked) {
      channel.tracked = false;
      this.#untrack(channel);
    }
  }

  async #accessToken(conn: Connection, channel: Channel, token: unknown): Promise<void> {
    if (typeof token !== 'string' || token.startsWith('sb_') || token === channel.token) return;
    const check = await checkToken(token, this.#secret);
    if (conn.channels.get(channel.topic) !== channel) return;
    if (!check.ok) {
      this.#shutdown(conn, channel, check.message);
      return;
    }
    const sub = typeof check.claims.sub === 'string' ? check.claims.sub : null;
    if (sub && (await isBannedAccount(this.#db, sub))) {
      if (conn.channels.get(channel.topic) === channel)
        this.#shutdown(conn, channel, 'account banned');
      return;
    }
    if (channel.config.isPrivate) {
      // The policies are asked again with the new claims; losing read access ends the channel.
      const before = channel.policies;
      const after = await this.#readPolicies(
        check.claims,
        channel.name,
        channel.config.presenceEnabled,
      );
      if (conn.channels.get(channel.topic) !== channel) return;
      const revoked =
        (before?.broadcast.read === true && after.broadcast.read === false) ||
        (before?.presence.read === true && after.presence.read === false);
      if (revoked || (!after.broadcast.read && !after.presence.read)) {
        this.#shutdown(conn, channel, noReadPermission(channel.topic));
        return;
      }
      channel.policies = after;
    }
    channel.token = token;
    channel.expiresAt = check.expiresAt;
    channel.viewer.claims = check.claims; // the subscriptions' viewer: RLS uses the new claims
  }

  /** Read policies of a private channel's topic; a policy that errors reads as no access. */
  async #readPolicies(
    claims: Channel['viewer']['claims'],
    name: string,
    presenceEnabled: boolean,
  ): Promise<NonNullable<Channel['policies']>> {
    const extensions: Extension[] = presenceEnabled ? ['broadcast', 'presence'] : ['broadcast'];
    try {
      return await readPolicies(this.#db, claims, name, extensions);
    } catch (error) {
      console.error('realtime: a realtime.messages policy failed:', error);
      return emptyPolicies();
    }
  }

  /** Whether a private channel's caller may write `extension` (asked once, then kept). */
  async #mayWrite(channel: Channel, extension: Extension): Promise<boolean> {
    if (!channel.config.isPrivate) return true;
    const policies = (channel.policies ??= emptyPolicies());
    if (policies[extension].write === undefined) {
      try {
        policies[extension].write = await mayWrite(
          this.#db,
          channel.viewer.claims,
          channel.name,
          extension,
        );
      } catch (error) {
        console.error('realtime: a realtime.messages policy failed:', error);
        return false;
      }
    }
    return policies[extension].write === true;
  }

  // ---------------------------------------------------------------------------- broadcast

  /**
   * A broadcast from outside a channel (the REST endpoint, http.ts): to every channel of the
   * topic (private ones if `isPrivate`), as Realtime's `BatchBroadcast` (JSON, `payload` a map)
   * or `SingleBroadcast` (a user broadcast: JSON or binary bytes) sends it.
   */
  broadcastFromServer(
    message:
      | { kind: 'json'; topic: string; event: string; payload: unknown; id?: string }
      | { kind: 'user'; topic: string; event: string; encoding: 0 | 1; bytes: Buffer },
    isPrivate: boolean,
  ): void {
    const topic = `realtime:${message.topic}`;
    if (message.kind === 'json') {
      this.#broadcastJson(topic, isPrivate, null, {
        type: 'broadcast',
        event: message.event,
        payload: message.payload,
        ...(message.id ? { meta: { id: message.id } } : {}),
      });
    } else {
      this.#broadcastUser(
        {
          joinRef: null,
          ref: null,
          topic,
          userEvent: message.event,
          encoding: message.encoding,
          metadata: null,
          userPayload: message.bytes,
        },
        isPrivate,
        null,
      );
    }
  }

  async #onUserBroadcast(conn: Connection, b: UserBroadcast): Promise<void> {
    const channel = conn.channels.get(b.topic);
    if (!channel) return;
    const request: Message = {
      joinRef: b.joinRef,
      ref: b.ref,
      topic: b.topic,
      event: 'broadcast',
      payload: null,
    };
    // A private channel's caller needs the broadcast write policy; without it the message is
    // dropped without a reply (Realtime's BroadcastHandler).
    if (!(await this.#mayWrite(channel, 'broadcast'))) return;
    if (b.userPayload.length > this.limits.maxPayloadBytes) {
      if (channel.config.broadcastAck)
        this.#reply(conn, request, 'error', { reason: 'Payload size exceeded' });
      return;
    }
    this.#broadcastUser(b, channel.config.isPrivate, channel.config.broadcastSelf ? null : conn);
    if (channel.config.broadcastAck) this.#reply(conn, request, 'ok');
  }

  async #onJsonBroadcast(
    conn: Connection,
    channel: Channel,
    message: Message,
    payload: Record<string, unknown>,
  ): Promise<void> {
    if (!(await this.#mayWrite(channel, 'broadcast'))) return;
    if (Buffer.byteLength(JSON.stringify(payload)) > this.limits.maxPayloadBytes) {
      if (channel.config.broadcastAck)
        this.#reply(conn, message, 'error', { reason: 'Payload size exceeded' });
      return;
    }
    this.#broadcastJson(
      channel.topic,
      channel.config.isPrivate,
      channel.config.broadcastSelf ? null : conn,
      payload,
    );
    if (channel.config.broadcastAck) this.#reply(conn, message, 'ok');
  }

  /** The channels of a topic that receive its broadcasts (private: broadcast read policy). */
  *#readers(topic: string, isPrivate: boolean, skip: Connection | null, extension: Extension) {
    for (const member of this.#topics.get(memberKey(topic, isPrivate)) ?? []) {
      if (member.conn === skip) continue;
      if (isPrivate && member.channel.policies?.[extension].read !== true) continue;
      yield member;
    }
  }

  #relayJson(topic: string, isPrivate: boolean, skip: Connection | null, payload: unknown): void {
    const frames = new Map<Vsn, string>();
    for (const member of this.#readers(topic, isPrivate, skip, 'broadcast')) {
      let frame = frames.get(member.conn.vsn);
      if (!frame) {
        frame = encode(member.conn.vsn, {
          joinRef: null,
          ref: null,
          topic,
          event: 'broadcast',
          payload,
        });
        frames.set(member.conn.vsn, frame);
      }
      this.#sendRaw(member.conn, frame);
    }
  }

  /** A user broadcast: its payload relayed as bytes (binary frames to vsn 2 sockets). */
  #relayUser(b: UserBroadcast, isPrivate: boolean, skip: Connection | null): void {
    let binary: Buffer | null = null;
    let json: string | undefined;
    const jsonPayload = userBroadcastPayload(b);
    for (const member of this.#readers(b.topic, isPrivate, skip, 'broadcast')) {
      if (member.conn.vsn === '2.0.0') {
        binary ??= encodeUserBroadcast({ ...b, metadata: null });
        this.#sendRaw(member.conn, binary);
      } else if (jsonPayload) {
        json ??= encode('1.0.0', {
          joinRef: null,
          ref: null,
          topic: b.topic,
          event: 'broadcast',
          payload: jsonPayload,
        });
        this.#sendRaw(member.conn, json);
      }
    }
  }

  // ---------------------------------------------------------------------------- presence

  async #onPresence(
    conn: Connection,
    channel: Channel,
    message: Message,
    payload: Record<string, unknown>,
  ): Promise<void> {
    const event = typeof payload.event === 'string' ? payload.event.toLowerCase() : '';
    const key = channel.memberKey;
    if (event === 'track') {
      const state = payload.payload ?? {};
      if (!isRecord(state)) {
        this.#reply(conn, message, 'error', { reason: 'Presence track payload must be a map' });
        return;
      }
      if (channel.config.isPrivate) {
        // Tracking on a private channel needs the presence write policy (and reads presence
        // only with the read policy, asked now if the join did not).
        if (channel.policies?.presence.read === undefined) {
          const read = await this.#readPolicies(channel.viewer.claims, channel.name, true);
          (channel.policies ??= emptyPolicies()).presence.read = read.presence.read === true;
        }
        if (!(await this.#mayWrite(channel, 'presence'))) {
          this.#reply(conn, message, 'error');
          return;
        }
      }
      const text = JSON.stringify(state);
      if (Buffer.byteLength(text) > this.limits.maxPayloadBytes) {
        this.#shutdown(conn, channel, 'Track message size exceeded');
        return;
      }
      if (channel.tracked && channel.trackedState === text) {
        this.#reply(conn, message, 'ok');
        return;
      }
      channel.tracked = true;
      channel.trackedState = text;
      const presenceKey = channel.config.presenceKey;
      const diff = this.#presence.track(key, presenceKey, channel, state);
      this.#reply(conn, message, 'ok');
      this.#presenceDiff(key, diff);
      const meta = diff.joins[presenceKey]?.metas[0];
      if (meta)
        this.#cluster.track({ owner: channel.id, topic: key, key: presenceKey, meta }, diff);
      return;
    }
    if (event === 'untrack') {
      channel.tracked = false;
      channel.trackedState = null;
      this.#reply(conn, message, 'ok');
      this.#untrack(channel);
      return;
    }
    this.#reply(conn, message, 'error', { reason: `Unknown presence event ${event}` });
  }

  /** Untracks `channel` here and on the other nodes. */
  #untrack(channel: Channel): void {
    const diff = this.#presence.untrack(channel.memberKey, channel.config.presenceKey, channel);
    if (!diff) return;
    this.#presenceDiff(channel.memberKey, diff);
    this.#cluster.untrack(channel.id, channel.memberKey, diff);
  }

  /** The presence_state of a topic: this node's entries and the other nodes'. */
  async #presenceState(key: string): Promise<PresenceList> {
    const local = this.#presence.list(key);
    if (!this.#cluster.shared) return local;
    const others = await this.#cluster.othersPresence(key);
    for (const [name, { metas }] of Object.entries(local))
      (others[name] ??= { metas: [] }).metas.push(...metas);
    return others;
  }

  #presenceDiff(key: string, diff: PresenceDiff): void {
    for (const member of this.#topics.get(key) ?? []) {
      if (!member.channel.mayReadPresence) continue;
      this.#push(member.conn, member.channel, 'presence_diff', diff);
    }
  }
}

function noReadPermission(topic: string): string {
  return `You do not have permissions to read from this Channel topic: ${topic.replace(/^realtime:/, '')}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
