import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildFingerprint } from './fingerprint';

const dirs: string[] = [];
function project(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'soundloft-fp-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('buildFingerprint', () => {
  it('is the same for the same inputs in different folders', () => {
    const files = { 'src/a.ts': 'export const a = 1;', 'index.html': '<div></div>' };
    expect(buildFingerprint(project(files))).toBe(buildFingerprint(project(files)));
  });

  it('changes when a source changes, ignores tests and non-inputs', () => {
    const base = { 'src/a.ts': 'export const a = 1;', 'index.html': '<div></div>' };
    const fp = buildFingerprint(project(base));
    expect(buildFingerprint(project({ ...base, 'src/a.ts': 'export const a = 2;' }))).not.toBe(fp);
    expect(buildFingerprint(project({ ...base, 'src/a.test.ts': 'test' }))).toBe(fp);
    expect(buildFingerprint(project({ ...base, 'README.md': 'docs' }))).toBe(fp);
  });
});
