/**
 * Realtime across nodes (docs/realtime.md § Several nodes). Every node delivers to its own
 * sockets; what a node must tell the others (a broadcast, a presence diff) goes through the
 * PostgreSQL they share: NOTIFY on one channel (cluster.sql's `cluster_send`, through a table
 * above NOTIFY's 8000 bytes), with the presence state kept in `embedded_realtime.presences` so
 * a join on any node gets everyone's `presence_state`. Nodes beat every `heartbeatMs`; a node
 * silent for `expiryMs` is swept with its presences (a leave for each) by the next node to sweep.
 *
 * On PGlite (one process, the default) there is no other node: `localCluster` keeps today's
 * in-memory path and touches no table.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database, Statement } from '../db/database';
import { execInstaller } from '../db/install-sql';
import type { PresenceDiff, PresenceList, PresenceMeta } from './presence';

const CLUSTER_SQL = fileURLToPath(new URL('./cluster.sql', import.meta.url));
export const CLUSTER_CHANNEL = 'embedded_realtime_cluster';

/** What one node tells the others. */
export type ClusterMessage =
  | { kind: 'json'; topic: string; isPrivate: boolean; payload: unknown }
  | {
      kind: 'user';
      topic: string;
      isPrivate: boolean;
      event: string;
      encoding: 0 | 1;
      metadata: Record<string, unknown> | null;
      /** base64 */
      bytes: string;
    }
  /** topic: the channel's member key (public:/private: + realtime:<name>). */
  | { kind: 'presence'; topic: string; diff: PresenceDiff };

/** One tracked presence of this node. */
export interface TrackedPresence {
  /** The tracking channel's id on this node. */
  owner: string;
  topic: string;
  key: string;
  meta: PresenceMeta;
}

export interface ClusterOptions {
  /** How often this node beats and sweeps (default 5 s, REALTIME_NODE_HEARTBEAT_MS). */
  heartbeatMs?: number;
  /** A node silent this long is gone, its presences with it (default 15 s, REALTIME_NODE_EXPIRY_MS). */
  expiryMs?: number;
}

export interface Cluster {
  readonly nodeId: string;
  /** False on PGlite: nothing leaves the process. */
  readonly shared: boolean;
  /** Sets the receiver of the other nodes' messages. */
  onMessage(handler: (message: ClusterMessage) => void): void;
  /**
   * Sets what runs after the listening connection was lost and is back: messages sent meanwhile
   * were missed, so presence must be sent again in full.
   */
  onResync(handler: () => void): void;
  /** Sends a broadcast to the other nodes (in order of calls). */
  send(message: ClusterMessage): void;
  /** Records a track of this node and sends its diff, in one transaction. */
  track(entry: TrackedPresence, diff: PresenceDiff): void;
  /** Records an untrack of this node and sends its diff, in one transaction. */
  untrack(owner: string, topic: string, diff: PresenceDiff): void;
  /** The presences other nodes track on `topic`. */
  othersPresence(topic: string): Promise<PresenceList>;
  /** Writes waiting to be sent have been (tests). */
  flush(): Promise<void>;
  /** Stops beating; `clean` also removes this node's presences now (a leave each). */
  close(clean?: boolean): Promise<void>;
}

export function localCluster(): Cluster {
  return {
    nodeId: 'local',
    shared: false,
    onMessage: () => undefined,
    onResync: () => undefined,
    send: () => undefined,
    track: () => undefined,
    untrack: () => undefined,
    othersPresence: () => Promise.resolve({}),
    flush: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

interface Envelope {
  id: string;
  node?: string;
}

/**
 * The cluster on PostgreSQL. `localPresences` lists this node's tracked presences: after this
 * node was swept as gone (it beat too late), they are written and announced again.
 */
export async function startPgCluster(
  db: Database,
  localPresences: () => Iterable<TrackedPresence>,
  options: ClusterOptions = {},
): Promise<Cluster> {
  const nodeId = randomUUID();
  const heartbeatMs = options.heartbeatMs ?? 5000;
  const expiryMs = options.expiryMs ?? 15_000;
  let handler: (message: ClusterMessage) => void = () => undefined;
  let resync: () => void = () => undefined;
  let seq = 0;
  let closed = false;

  await execInstaller(db, readFileSync(CLUSTER_SQL, 'utf8'));
  await db.query('insert into embedded_realtime.nodes (id) values ($1)', [nodeId]);

  // Writes leave in call order, batched: whatever queued while a batch was in flight goes in the
  // next one, one transaction (its notifications arrive in order, after its rows are visible).
  let queue: Statement[] = [];
  let writing: Promise<void> | null = null;
  const body = (message: ClusterMessage) =>
    JSON.stringify({ id: `${nodeId}:${seq++}`, node: nodeId, ...message });
  const sendStatement = (text: string): Statement => ({
    sql: 'select embedded_realtime.cluster_send($1)',
    params: [text],
  });
  const write = () => {
    writing ??= (async () => {
      while (queue.length > 0) {
        const batch = queue;
        queue = [];
        await db.batch(batch).catch((error: unknown) => console.error('realtime cluster:', error));
      }
      writing = null;
    })();
  };
  const enqueue = (...statements: Statement[]) => {
    if (closed) return;
    queue.push(...statements);
    write();
  };

  // Received in order: a large message is read from the table before the next is handled.
  let receiving = Promise.resolve();
  const receive = (payload: string) => {
    receiving = receiving
      .then(async () => {
        let text = payload;
        if (text.startsWith('#')) {
          const { rows } = await db.query<{ body: string }>(
            'select body from embedded_realtime.messages where id = $1',
            [Number(text.slice(1))],
          );
          if (!rows[0]) return; // older than a minute: swept
          text = rows[0].body;
        }
        const message = JSON.parse(text) as ClusterMessage & Envelope;
        if (message.node === nodeId) return;
        handler(message);
      })
      .catch((error: unknown) => console.error('realtime cluster:', error));
  };
  const stopListening = await db.listen(CLUSTER_CHANNEL, receive, () => resync());

  const trackStatements = (entry: TrackedPresence): Statement[] => [
    {
      sql: `insert into embedded_realtime.presences (node_id, owner, topic, key, meta)
            values ($1, $2, $3, $4, $5)
            on conflict (node_id, owner) do update set key = excluded.key, meta = excluded.meta`,
      params: [nodeId, entry.owner, entry.topic, entry.key, JSON.stringify(entry.meta)],
    },
  ];

  const beat = async () => {
    const alive = await db.query(
      'update embedded_realtime.nodes set seen_at = now() where id = $1',
      [nodeId],
    );
    if (alive.affectedRows === 0 && !closed) {
      // Swept as gone (a beat came too late): back in, with every presence announced again.
      await db.query(
        'insert into embedded_realtime.nodes (id) values ($1) on conflict do nothing',
        [nodeId],
      );
      for (const entry of localPresences()) {
        const diff = { joins: { [entry.key]: { metas: [entry.meta] } }, leaves: {} };
        enqueue(
          ...trackStatements(entry),
          sendStatement(body({ kind: 'presence', topic: entry.topic, diff })),
        );
        handler({ kind: 'presence', topic: entry.topic, diff });
      }
    }
    await db.query('select embedded_realtime.sweep($1)', [expiryMs]);
  };
  let beating: Promise<void> | null = null;
  const timer = setInterval(() => {
    beating ??= beat()
      .catch((error: unknown) => console.error('realtime cluster heartbeat:', error))
      .finally(() => {
        beating = null;
      });
  }, heartbeatMs);
  timer.unref();

  return {
    nodeId,
    shared: true,
    onMessage(h) {
      handler = h;
    },
    onResync(h) {
      resync = h;
    },
    send(message) {
      enqueue(sendStatement(body(message)));
    },
    track(entry, diff) {
      enqueue(
        ...trackStatements(entry),
        sendStatement(body({ kind: 'presence', topic: entry.topic, diff })),
      );
    },
    untrack(owner, topic, diff) {
      enqueue(
        {
          sql: 'delete from embedded_realtime.presences where node_id = $1 and owner = $2',
          params: [nodeId, owner],
        },
        sendStatement(body({ kind: 'presence', topic, diff })),
      );
    },
    async othersPresence(topic) {
      const { rows } = await db.query<{ key: string; meta: PresenceMeta | string }>(
        `select key, meta from embedded_realtime.presences
          where topic = $1 and node_id <> $2 order by key`,
        [topic, nodeId],
      );
      const out: PresenceList = {};
      for (const row of rows) {
        const meta =
          typeof row.meta === 'string' ? (JSON.parse(row.meta) as PresenceMeta) : row.meta;
        (out[row.key] ??= { metas: [] }).metas.push(meta);
      }
      return out;
    },
    async flush() {
      while (writing) await writing;
      await receiving;
    },
    async close(clean = true) {
      clearInterval(timer);
      await beating;
      while (writing) await writing;
      closed = true;
      await stopListening();
      await receiving;
      if (clean) await db.query('select embedded_realtime.sweep($1, $2)', [expiryMs, nodeId]);
    },
  };
}
