import { describe, expect, it } from 'vitest';
import { FilterError, matchesFilters, parseFilter } from './filters';
import { decodeBinary, decodeText, encodeUserBroadcast } from './protocol';

describe('postgres_changes filters (Realtime grammar)', () => {
  it('parses single, combined, negated, quoted and list filters', () => {
    expect(parseFilter('id=eq.5')).toEqual([{ column: 'id', op: 'eq', value: '5', negate: false }]);
    expect(parseFilter('')).toEqual([]);
    expect(parseFilter('id=gt.0,id=lt.100').map((f) => f.op)).toEqual(['gt', 'lt']);
    expect(parseFilter('name=not.neq."a,b"')).toEqual([
      { column: 'name', op: 'neq', value: 'a,b', negate: true },
    ]);
    expect(parseFilter('tags=in.("a,b",c)')[0]?.value).toEqual(['a,b', 'c']);
    expect(parseFilter('name=eq."ab"cd')[0]?.value).toBe('"ab"cd');
    expect(() => parseFilter('id=gt.0,')).toThrow(FilterError);
    expect(() => parseFilter('id=foo.1')).toThrow(/Error parsing `filter` params/);
  });

  it('matches rows as Postgres compares them, ignoring columns a delete does not carry', () => {
    const row = { id: 7, name: 'Radiohead', on: true, gone: null };
    expect(matchesFilters(parseFilter('id=eq.7'), row)).toBe(true);
    expect(matchesFilters(parseFilter('id=gt.10'), row)).toBe(false);
    expect(matchesFilters(parseFilter('id=in.(1,7)'), row)).toBe(true);
    expect(matchesFilters(parseFilter('name=ilike.radio*'), row)).toBe(true);
    expect(matchesFilters(parseFilter('on=is.true,gone=is.null'), row)).toBe(true);
    expect(matchesFilters(parseFilter('gone=eq.x'), row)).toBe(false);
    expect(matchesFilters(parseFilter('id=not.eq.7'), row)).toBe(false);
    expect(matchesFilters(parseFilter('user_id=eq.someone'), { id: 7 })).toBe(true);
  });
});

describe('frames', () => {
  it('decodes vsn 1 objects and vsn 2 arrays', () => {
    expect(decodeText('2.0.0', '["1","2","realtime:a","phx_join",{}]')).toEqual({
      joinRef: '1',
      ref: '2',
      topic: 'realtime:a',
      event: 'phx_join',
      payload: {},
    });
    expect(
      decodeText('1.0.0', '{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"3"}'),
    ).toMatchObject({ topic: 'phoenix', ref: '3', joinRef: null });
  });

  it('reads a user broadcast push and writes the user broadcast realtime-js decodes', () => {
    const payload = Buffer.from('{"x":1}');
    const push = Buffer.concat([
      Buffer.from([3, 1, 1, 10, 5, 0, 1]),
      Buffer.from('12realtime:ahello'),
      payload,
    ]);
    const b = decodeBinary(push);
    expect(b).toMatchObject({ joinRef: '1', ref: '2', topic: 'realtime:a', userEvent: 'hello' });
    const out = encodeUserBroadcast(b);
    expect([...out.subarray(0, 5)]).toEqual([4, 10, 5, 0, 1]);
    expect(out.subarray(5).toString()).toBe('realtime:ahello{"x":1}');
  });
});
