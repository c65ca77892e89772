// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { testTrack } from '../../db/test-track';
import type { FromSearchWorker, ToSearchWorker } from './protocol';
import { SearchClient, type ChannelAnswer } from './search-client';
import { SearchHost } from './search-host';

const tracks = [
  testTrack('t1', { title: 'Harbor Lights', artist: 'Juniper Vale', plays: 3 }),
  testTrack('t2', { title: 'Paper Lanterns', artist: 'Juniper Vale', plays: 9 }),
];
const names = (a: ChannelAnswer | undefined) => a?.answer?.hits.map((h) => h.doc.id) ?? null;

/** A client on a host in this thread; `hold` keeps the host's answers until released. */
function setup() {
  const sent: ToSearchWorker[] = [];
  const held: FromSearchWorker[] = [];
  let hold = false;
  let deliver: (m: FromSearchWorker) => void = () => undefined;
  const host = new SearchHost((m) => (hold && m.type === 'answer' ? held.push(m) : deliver(m)));
  const client = new SearchClient((receive) => {
    deliver = receive;
    return {
      post: (m) => {
        sent.push(m);
        host.handle(m);
      },
    };
  });
  return {
    host,
    client,
    sent,
    hold: (on: boolean) => {
      hold = on;
      if (!on) for (const m of held.splice(0)) deliver(m);
    },
  };
}

describe('search worker host and client', () => {
  it('answers null until the index is built, then ranks; typos are forgiven', async () => {
    const { host, client } = setup();
    const got: ChannelAnswer[] = [];
    const channel = client.channel((a) => got.push(a));
    channel.search('harbor lites', 5);
    expect(got[0]?.answer).toBeNull();
    await host.setSources({ tracks });
    expect(client.getVersion()).toBe(1);
    channel.search('harbor lites', 5);
    expect(names(got[1])?.[0]).toBe('track:t1');
    // A correction only when asked for (/explore), and only for words of 4+ letters.
    channel.search('ppaer lantrens', 5);
    expect(got[2]?.answer?.suggestion).toBeNull();
    channel.search('ppaer lantrens', 5, true);
    expect(got[3]?.answer?.suggestion).toBe('paper lanterns');
    channel.search('hx', 5, true);
    expect(got[4]?.answer?.suggestion).toBeNull();
  });

  it('latest keystroke wins: a text typed while one runs replaces the waiting one', async () => {
    const { host, client, sent, hold } = setup();
    await host.setSources({ tracks });
    const got: ChannelAnswer[] = [];
    const channel = client.channel((a) => got.push(a));
    hold(true);
    channel.search('pap', 5);
    channel.search('pape', 5);
    channel.search('paper', 5);
    // Only the first is in the worker; 'pape' was replaced by 'paper' before it was sent.
    expect(
      sent.filter((m) => m.type === 'search').map((m) => m.type === 'search' && m.query),
    ).toEqual(['pap']);
    hold(false); // 'pap' answers (stale: dropped) and 'paper' is sent
    expect(
      sent.filter((m) => m.type === 'search').map((m) => m.type === 'search' && m.query),
    ).toEqual(['pap', 'paper']);
    expect(got.map((a) => a.query)).toEqual(['paper']);
    expect(names(got[0])?.[0]).toBe('track:t2');
  });

  it('syncs the mirror incrementally and keeps the server rows', async () => {
    const { host, client } = setup();
    await host.setSources({ tracks });
    const got: ChannelAnswer[] = [];
    const channel = client.channel((a) => got.push(a));
    client.addTracks([testTrack('s1', { title: 'Server Only Song', artist: 'Remote Band' })]);
    expect(client.getVersion()).toBe(2);
    // t1 renamed, t2 gone from the mirror.
    await host.setSources({
      tracks: [{ ...(tracks[0] as (typeof tracks)[0]), title: 'Kettle On' }],
    });
    expect(client.getVersion()).toBe(3);
    for (const q of ['kettle', 'harbor', 'paper lanterns', 'server only']) channel.search(q, 5);
    // One at a time: the host answers synchronously here, so each search is delivered.
    expect(got.map((a) => [a.query, names(a)?.[0] ?? null])).toEqual([
      ['kettle', 'track:t1'],
      ['harbor', null],
      ['paper lanterns', null],
      ['server only', 'track:s1'],
    ]);
    // The same sources again change nothing: no new version.
    await host.setSources({
      tracks: [{ ...(tracks[0] as (typeof tracks)[0]), title: 'Kettle On' }],
    });
    expect(client.getVersion()).toBe(3);
  });
});
