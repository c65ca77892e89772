/**
 * `npm run lint:cycles` (dpdm) fails on files that import each other. Runs the script's own
 * command from package.json on small trees written to a temp dir: a type-only import back (which
 * eslint-plugin-import-x's no-cycle lets through), a dynamic import back, a cycle through the
 * `@/` alias, and a tree without a cycle.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const command = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts['lint:cycles']!;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs the lint:cycles command in a tree of `files` (path → text). */
function lintCycles(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'soundloft-cycles-'));
  dirs.push(dir);
  const tree: Record<string, string> = {
    'tsconfig.app.json': JSON.stringify({
      compilerOptions: { baseUrl: '.', paths: { '@/*': ['./src/*'] } },
    }),
    ...files,
  };
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const result = spawnSync('sh', ['-c', command], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH}` },
  });
  return { code: result.status, out: result.stdout + result.stderr };
}

describe('npm run lint:cycles', { timeout: 60_000 }, () => {
  const cycles: [string, Record<string, string>, RegExp][] = [
    [
      'a pair where one side imports only a type',
      {
        'server/rest/app.ts':
          "import { fast } from './node';\nexport interface Req { url: string }\nexport const app = fast;\n",
        'server/rest/node.ts':
          "import type { Req } from './app';\nexport const fast = (r: Req) => r.url;\n",
      },
      /server\/rest\/(app|node)\.ts -> server\/rest\/(app|node)\.ts/,
    ],
    [
      'a dynamic import back, and through the @/ alias',
      {
        'src/components/dialog.tsx':
          "export { wording } from '@/components/lazy-dialog';\nexport const Dialog = () => null;\n",
        'src/components/lazy-dialog.tsx':
          "export const wording = 'sure?';\nexport const load = () => import('./dialog');\n",
      },
      /src\/components\/(lazy-)?dialog\.tsx -> src\/components\/(lazy-)?dialog\.tsx/,
    ],
  ];

  it.each(cycles)('fails on %s', (_, files, route) => {
    const r = lintCycles(files);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(route);
  });

  it('passes a tree where imports flow one way', () => {
    const r = lintCycles({
      'src/lib/a.ts': 'export const a = 1;\n',
      'src/lib/b.ts':
        "import { a } from './a';\nimport type { C } from '@/lib/c';\nexport const b = (c: C) => a + c;\n",
      'src/lib/c.ts': 'export type C = number;\n',
      'vite.config.ts': "import { b } from './src/lib/b';\nexport default b;\n",
    });
    expect(r.out).toContain('no circular dependency');
    expect(r.code).toBe(0);
  });
});
