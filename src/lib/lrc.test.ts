// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { lrcFileName, parseLrc, toLrc } from './lrc';

describe('parseLrc', () => {
  it('reads time tags, skips metadata and blank lines, sorts by time', () => {
    const text = [
      '\uFEFF[ti:Harbor Lights]',
      '[ar:Neon Harbor]',
      '',
      '[00:12.50]Second line',
      '[00:01.00]First line',
      '[01:02.345]Third line',
      '[00:20.00]   ',
    ].join('\r\n');
    expect(parseLrc(text)).toEqual([
      { text: 'First line', timestamp: 1 },
      { text: 'Second line', timestamp: 12.5 },
      { text: 'Third line', timestamp: 62.35 },
    ]);
  });

  it('repeats a text with several time tags and applies the offset', () => {
    const text = '[offset:500]\n[00:10.00][00:30.00]Chorus\n[00:00.20]Start';
    expect(parseLrc(text)).toEqual([
      { text: 'Start', timestamp: 0 },
      { text: 'Chorus', timestamp: 9.5 },
      { text: 'Chorus', timestamp: 29.5 },
    ]);
  });

  it('plain text imports as untimed lines', () => {
    expect(parseLrc('one\n\n two \nthree')).toEqual([
      { text: 'one', timestamp: 0 },
      { text: 'two', timestamp: 0 },
      { text: 'three', timestamp: 0 },
    ]);
  });
});

describe('toLrc', () => {
  it('writes metadata and [mm:ss.xx] tags that parse back', () => {
    const lines = [
      { text: 'Hello', timestamp: 0 },
      { text: 'World', timestamp: 65.5 },
    ];
    const lrc = toLrc(lines, { title: 'T', artist: 'A', length: 42 });
    expect(lrc).toBe('[ti:T]\n[ar:A]\n[length:00:42]\n[00:00.00]Hello\n[01:05.50]World\n');
    expect(parseLrc(lrc)).toEqual(lines);
  });

  it('file name drops characters file systems refuse', () => {
    expect(lrcFileName('AC/DC', 'What? Now')).toBe('AC_DC - What_ Now.lrc');
  });
});
