/**
 * Phoenix Presence for one server: who is tracked on each topic, as the `presence_state` and
 * `presence_diff` payloads realtime-js merges (`{key: {metas: [{phx_ref, ...state}]}}`).
 */
import { randomBytes } from 'node:crypto';

export interface PresenceMeta {
  phx_ref: string;
  phx_ref_prev?: string;
  [field: string]: unknown;
}

export type PresenceList = Record<string, { metas: PresenceMeta[] }>;

export interface PresenceDiff {
  joins: PresenceList;
  leaves: PresenceList;
}

function newRef(): string {
  return randomBytes(8).toString('base64url');
}

/** Who tracks: a joined channel, with an id unique on this node. */
export interface PresenceOwner {
  readonly id: string;
}

/**
 * This node's tracked entries per topic: key → (owner → meta). Other nodes' entries are in the
 * database (cluster.ts) when several nodes share it.
 */
export class PresenceStore {
  readonly #topics = new Map<string, Map<string, Map<PresenceOwner, PresenceMeta>>>();

  /** Every entry tracked on this node. */
  *entries(): Iterable<{ topic: string; key: string; owner: PresenceOwner; meta: PresenceMeta }> {
    for (const [topic, keys] of this.#topics)
      for (const [key, owners] of keys)
        for (const [owner, meta] of owners) yield { topic, key, owner, meta };
  }

  /** The topic's state as presence_state sends it. */
  list(topic: string): PresenceList {
    const out: PresenceList = {};
    for (const [key, owners] of this.#topics.get(topic) ?? []) {
      out[key] = { metas: [...owners.values()] };
    }
    return out;
  }

  /** Tracks (or updates) `owner`'s state under `key`; returns the diff to broadcast, or null. */
  track(
    topic: string,
    key: string,
    owner: PresenceOwner,
    state: Record<string, unknown>,
  ): PresenceDiff {
    let keys = this.#topics.get(topic);
    if (!keys) {
      keys = new Map();
      this.#topics.set(topic, keys);
    }
    let owners = keys.get(key);
    if (!owners) {
      owners = new Map();
      keys.set(key, owners);
    }
    const previous = owners.get(owner);
    const meta: PresenceMeta = {
      ...state,
      phx_ref: newRef(),
      ...(previous ? { phx_ref_prev: previous.phx_ref } : {}),
    };
    owners.set(owner, meta);
    return {
      joins: { [key]: { metas: [meta] } },
      leaves: previous ? { [key]: { metas: [previous] } } : {},
    };
  }

  /** Removes `owner`'s entry under `key`; returns the diff, or null when it was not tracked. */
  untrack(topic: string, key: string, owner: PresenceOwner): PresenceDiff | null {
    const keys = this.#topics.get(topic);
    const owners = keys?.get(key);
    const previous = owners?.get(owner);
    if (!keys || !owners || !previous) return null;
    owners.delete(owner);
    if (owners.size === 0) keys.delete(key);
    if (keys.size === 0) this.#topics.delete(topic);
    return { joins: {}, leaves: { [key]: { metas: [previous] } } };
  }
}
