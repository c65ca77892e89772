/**
 * Phoenix channel frames as Supabase Realtime speaks them (`RealtimeWeb.Socket.V2Serializer`).
 *
 * - vsn 1.0.0: JSON objects `{join_ref, ref, topic, event, payload}`.
 * - vsn 2.0.0 (realtime-js's default): JSON arrays `[join_ref, ref, topic, event, payload]`, plus
 *   two binary frames for user broadcasts: kind 3 (client → server, "user broadcast push") and
 *   kind 4 (server → client, "user broadcast"), so a broadcast's payload is relayed as bytes.
 */

export type Vsn = '1.0.0' | '2.0.0';

export interface Message {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** A broadcast whose user payload stays encoded: relayed to others without re-serialising. */
export interface UserBroadcast {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  userEvent: string;
  /** 1 = JSON (UTF-8 text), 0 = binary. */
  encoding: 0 | 1;
  metadata: Record<string, unknown> | null;
  userPayload: Buffer;
}

export class ProtocolError extends Error {}

const USER_BROADCAST_PUSH = 3;
const USER_BROADCAST = 4;

function asRef(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return String(value);
}

/** Decodes one text frame. */
export function decodeText(vsn: Vsn, text: string): Message {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ProtocolError('frame is not JSON');
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length < 5) throw new ProtocolError('expected V2 array');
    const [joinRef, ref, topic, event, payload] = parsed as unknown[];
    if (typeof topic !== 'string' || typeof event !== 'string')
      throw new ProtocolError('topic and event must be strings');
    return { joinRef: asRef(joinRef), ref: asRef(ref), topic, event, payload };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ProtocolError('expected a JSON object');
  const m = parsed as Record<string, unknown>;
  if (typeof m.topic !== 'string' || typeof m.event !== 'string')
    throw new ProtocolError('topic and event must be strings');
  return {
    joinRef: asRef(m.join_ref),
    ref: asRef(m.ref),
    topic: m.topic,
    event: m.event,
    payload: m.payload,
  };
}

/** Decodes one binary frame (vsn 2.0.0 only): a user broadcast push. */
export function decodeBinary(data: Buffer): UserBroadcast {
  if (data.length < 7 || data[0] !== USER_BROADCAST_PUSH)
    throw new ProtocolError('unsupported binary frame');
  const sizes = [data[1], data[2], data[3], data[4], data[5]] as number[];
  const encoding = data[6] === 0 ? 0 : 1;
  let offset = 7;
  const take = (n: number) => {
    if (offset + n > data.length) throw new ProtocolError('truncated binary frame');
    const part = data.subarray(offset, offset + n);
    offset += n;
    return part;
  };
  const [joinRefSize, refSize, topicSize, eventSize, metaSize] = sizes as [
    number,
    number,
    number,
    number,
    number,
  ];
  const joinRef = take(joinRefSize).toString('utf8');
  const ref = take(refSize).toString('utf8');
  const topic = take(topicSize).toString('utf8');
  const userEvent = take(eventSize).toString('utf8');
  const metaText = take(metaSize).toString('utf8');
  let metadata: Record<string, unknown> | null = null;
  if (metaText) {
    try {
      metadata = JSON.parse(metaText) as Record<string, unknown>;
    } catch {
      throw new ProtocolError('broadcast metadata is not JSON');
    }
  }
  return {
    joinRef: joinRef || null,
    ref: ref || null,
    topic,
    userEvent,
    encoding,
    metadata,
    userPayload: Buffer.from(data.subarray(offset)),
  };
}

/** Encodes a message for a socket of version `vsn`. */
export function encode(vsn: Vsn, message: Message): string {
  if (vsn === '2.0.0') {
    return JSON.stringify([
      message.joinRef,
      message.ref,
      message.topic,
      message.event,
      message.payload,
    ]);
  }
  return JSON.stringify({
    join_ref: message.joinRef,
    ref: message.ref,
    topic: message.topic,
    event: message.event,
    payload: message.payload,
  });
}

/** The server → client user broadcast frame (kind 4). Sizes are bytes, each at most 255. */
export function encodeUserBroadcast(b: UserBroadcast): Buffer {
  const topic = Buffer.from(b.topic, 'utf8');
  const event = Buffer.from(b.userEvent, 'utf8');
  const meta = Buffer.from(b.metadata ? JSON.stringify(b.metadata) : '', 'utf8');
  if (topic.length > 255 || event.length > 255 || meta.length > 255)
    throw new ProtocolError('topic, event and metadata must be at most 255 bytes');
  const header = Buffer.from([USER_BROADCAST, topic.length, event.length, meta.length, b.encoding]);
  return Buffer.concat([header, topic, event, meta, b.userPayload]);
}

/** The JSON form of a user broadcast (for 1.0.0 sockets and JSON pushes). */
export function userBroadcastPayload(b: UserBroadcast): Record<string, unknown> | null {
  if (b.encoding !== 1) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(b.userPayload.toString('utf8'));
  } catch {
    return null;
  }
  return {
    type: 'broadcast',
    event: b.userEvent,
    payload,
    ...(b.metadata ? { meta: b.metadata } : {}),
  };
}
