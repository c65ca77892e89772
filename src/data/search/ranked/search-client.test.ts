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
  it('answers "preparing" until the index is built, then ranks; typos are forgiven', async () => {
    const { host, client } = setup();
    const got: ChannelAnswer[] = [];
    const channel = client.channel((a) => got.push(a));
    channel.search('harbor lites', 5);
    expect(got[0]?.answer.preparing).toBe(true);
    expect(names(got[0])).toEqual([]);
    await host.setSources({ tracks });
    expect(client.getVersion()).toBe(1);
    channel.search('harbor lites', 5);
    expect(got[1]?.answer.preparing).toBe(false);
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

  it('during the first build: answers from the chunks indexed so far (most played first) and keeps the server rows', async () => {
    const { host, client } = setup();
    const got: ChannelAnswer[] = [];
    const channel = client.channel((a) => got.push(a));
    // Server rows before the mirror was read: they join the (empty) index and answer.
    client.addTracks([testTrack('s1', { title: 'Harbor Lights Live', artist: 'Juniper Vale' })]);
    channel.search('harbor', 5);
    expect(got[0]?.answer.preparing).toBe(true);
    expect(names(got[0])).toEqual(['track:s1']);
    // 2,500 mirror tracks, built in chunks of 2,000; the most played are indexed first.
    const many = Array.from({ length: 2500 }, (_, i) =>
      testTrack(`m${i}`, { title: `Filler n${i}`, artist: `Band ${i}`, plays: i }),
    );
    // s1 is in the mirror too (with lyrics the server row lacked): the mirror's copy wins.
    const mirrored = testTrack('s1', { title: 'Harbor Lights Live', artist: 'Juniper Vale' });
    const built = host.setSources({ tracks: [...many, mirrored] });
    // The first chunk is indexed synchronously; the rest waits for the next task.
    const versionAfterChunk = client.getVersion();
    expect(versionAfterChunk).toBeGreaterThan(1);
    channel.search('n2499', 5);
    channel.search('n5', 5);
    channel.search('harbor', 5);
    expect(got.slice(1).map((a) => [a.query, a.answer.preparing, names(a)?.[0] ?? null])).toEqual([
      ['n2499', true, 'track:m2499'], // most played: in the first chunk
      ['n5', true, null], // least played: not indexed yet
      ['harbor', true, 'track:s1'], // the server's row was not dropped
    ]);
    await built;
    channel.search('n5', 5);
    channel.search('harbor', 5);
    expect(got.slice(4).map((a) => [a.query, a.answer.preparing, names(a)?.[0] ?? null])).toEqual([
      ['n5', false, 'track:m5'],
      ['harbor', false, 'track:s1'],
    ]);
    // s1 is the mirror's now: a mirror read without it removes it.
    await host.setSources({ tracks: many });
    channel.search('harbor', 5);
    expect(names(got[6])).toEqual([]);
  });

  it('quick start: the newest tracks answer before the build, which confirms or drops them', async () => {
    const { host, client } = setup();
    const got: ChannelAnswer[] = [];
    const channel = client.channel((a) => got.push(a));
    host.quickStart([tracks[0]!, testTrack('g1', { title: 'Gone Song', artist: 'Left Band' })]);
    channel.search('harbor', 5);
    channel.search('gone song', 5);
    await host.setSources({ tracks }); // g1 was deleted from the mirror meanwhile
    channel.search('gone song', 5);
    channel.search('harbor', 5);
    channel.search('left band', 5);
    expect(got.map((a) => [a.query, a.answer.preparing, names(a)?.[0] ?? null])).toEqual([
      ['harbor', true, 'track:t1'],
      ['gone song', true, 'track:g1'],
      ['gone song', false, null],
      ['harbor', false, 'track:t1'],
      ['left band', false, null], // its artist document went with it
    ]);
    // After the build a quick start changes nothing.
    host.quickStart([testTrack('g2', { title: 'Late Song' })]);
    channel.search('late song', 5);
    expect(names(got[5])).toEqual([]);
  });
});
