import { describe, expect, it } from 'vitest';
import { RestError } from './errors';
import { parseLogicTree, parseOperation, parseOrder } from './parse-filter';
import { parseSelect } from './parse-select';
import { parseQuery } from './query-params';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof RestError ? `${err.status} ${err.code}` : 'other';
  }
  return 'ok';
};

describe('parseSelect', () => {
  it('parses columns, aliases, casts and JSON paths', () => {
    expect(
      parseSelect('id,name:title,n::text,label:meta->label->>name,first:arr->0,"odd name"'),
    ).toEqual([
      { kind: 'column', field: { name: 'id', path: [] }, alias: undefined, cast: undefined },
      { kind: 'column', field: { name: 'title', path: [] }, alias: 'name', cast: undefined },
      { kind: 'column', field: { name: 'n', path: [] }, alias: undefined, cast: 'text' },
      {
        kind: 'column',
        field: {
          name: 'meta',
          path: [
            { arrow: '->', key: 'label' },
            { arrow: '->>', key: 'name' },
          ],
        },
        alias: 'label',
        cast: undefined,
      },
      {
        kind: 'column',
        field: { name: 'arr', path: [{ arrow: '->', key: '0' }] },
        alias: 'first',
        cast: undefined,
      },
      { kind: 'column', field: { name: 'odd name', path: [] }, alias: undefined, cast: undefined },
    ]);
  });

  it('parses embeds with hints, !inner, aliases, nesting and empty selects', () => {
    expect(parseSelect('*,a:albums!band_id!inner(title,songs(*)),x()')).toEqual([
      { kind: 'star' },
      {
        kind: 'embed',
        target: 'albums',
        alias: 'a',
        hints: ['band_id'],
        inner: true,
        spread: false,
        select: [
          { kind: 'column', field: { name: 'title', path: [] }, alias: undefined, cast: undefined },
          {
            kind: 'embed',
            target: 'songs',
            alias: undefined,
            hints: [],
            inner: false,
            spread: false,
            select: [{ kind: 'star' }],
          },
        ],
      },
      {
        kind: 'embed',
        target: 'x',
        alias: undefined,
        hints: [],
        inner: false,
        spread: false,
        select: [],
      },
    ]);
  });

  it('parses spread embeds', () => {
    expect(parseSelect('id,...bands(name)')[1]).toMatchObject({
      kind: 'embed',
      target: 'bands',
      spread: true,
    });
  });

  it('rejects malformed selects with 400 PGRST100', () => {
    for (const bad of [
      'id,',
      'a(b',
      'a)',
      ',',
      'a::',
      'a:b:c',
      '...a:b(c)',
      '...x',
      'a->',
      'x!(y)',
    ])
      expect(
        code(() => parseSelect(bad)),
        bad,
      ).toBe('400 PGRST100');
  });
});

describe('filters, logic trees and order', () => {
  it('parses operators with not., modifiers and lists', () => {
    expect(parseOperation('not.in.(1,"a,b",3)', '')).toEqual({
      negate: true,
      operation: { op: 'in', values: ['1', 'a,b', '3'] },
    });
    expect(parseOperation('like.*abc*', '')).toEqual({
      negate: false,
      operation: { op: 'like', value: '%abc%', quantifier: undefined },
    });
    expect(parseOperation('fts(english).cat', '')).toEqual({
      negate: false,
      operation: { op: 'fts', value: 'cat', config: 'english' },
    });
    expect(parseOperation('eq(any).{1,2}', '')).toEqual({
      negate: false,
      operation: { op: 'eq', value: '{1,2}', quantifier: 'any' },
    });
    expect(parseOperation('is.NULL', '').operation).toEqual({ op: 'is', value: 'null' });
    expect(parseOperation('cs.{a,b}', '').operation).toEqual({ op: 'cs', value: '{a,b}' });
    expect(parseOperation('eq.a.b.c', '').operation).toMatchObject({ value: 'a.b.c' });
    for (const bad of ['eq', 'zz.1', 'is.maybe', 'in.1,2', 'eq(some).1', 'fts(x;y).a', 'gt(any.1'])
      expect(
        code(() => parseOperation(bad, bad)),
        bad,
      ).toBe('400 PGRST100');
  });

  it('parses nested logic trees with quoted values', () => {
    const tree = parseLogicTree('or', false, '(a.eq.1,not.and(b.gt.2,c->>d.eq."x,y"),e.in.(1,2))');
    expect(tree).toEqual({
      kind: 'logic',
      op: 'or',
      negate: false,
      children: [
        {
          kind: 'filter',
          filter: {
            field: { name: 'a', path: [] },
            negate: false,
            operation: { op: 'eq', value: '1', quantifier: undefined },
          },
        },
        {
          kind: 'logic',
          op: 'and',
          negate: true,
          children: [
            {
              kind: 'filter',
              filter: {
                field: { name: 'b', path: [] },
                negate: false,
                operation: { op: 'gt', value: '2', quantifier: undefined },
              },
            },
            {
              kind: 'filter',
              filter: {
                field: { name: 'c', path: [{ arrow: '->>', key: 'd' }] },
                negate: false,
                operation: { op: 'eq', value: 'x,y', quantifier: undefined },
              },
            },
          ],
        },
        {
          kind: 'filter',
          filter: {
            field: { name: 'e', path: [] },
            negate: false,
            operation: { op: 'in', values: ['1', '2'] },
          },
        },
      ],
    });
    for (const bad of ['(a.eq.1', 'a.eq.1', '()', '(a)', '(a.eq.1,)', '(and(a.eq.1)'])
      expect(
        code(() => parseLogicTree('or', false, bad)),
        bad,
      ).toBe('400 PGRST100');
  });

  it('parses order terms', () => {
    expect(parseOrder('a.desc.nullslast,b,c->>d.asc.nullsfirst')).toEqual([
      { field: { name: 'a', path: [] }, direction: 'desc', nulls: 'last' },
      { field: { name: 'b', path: [] } },
      {
        field: { name: 'c', path: [{ arrow: '->>', key: 'd' }] },
        direction: 'asc',
        nulls: 'first',
      },
    ]);
    expect(code(() => parseOrder('a.up'))).toBe('400 PGRST100');
  });
});

describe('parseQuery', () => {
  it('routes params to the root or to embed levels, and claims RPC arguments', () => {
    const q = parseQuery(
      new URLSearchParams(
        'select=*,songs(*)&id=gt.1&songs.order=title&songs.limit=2&songs.title=like.A*&or=(a.eq.1,b.eq.2)&not.and=(c.eq.1,d.eq.2)&limit=5&offset=10&columns="a","b"&on_conflict=a&n=3',
      ),
      (k) => k === 'n',
    );
    const root = q.levels.get('');
    expect(root?.conditions).toHaveLength(3);
    expect(root?.limit).toBe(5);
    expect(root?.offset).toBe(10);
    expect(q.levels.get('songs')).toMatchObject({
      limit: 2,
      order: [{ field: { name: 'title', path: [] } }],
    });
    expect(q.columns).toEqual(['a', 'b']);
    expect(q.onConflict).toEqual(['a']);
    expect(q.args.get('n')).toBe('3');
    expect(q.rootEq).toEqual([{ column: 'id', value: '1', negate: false, op: 'gt' }]);
  });
});
