import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cwd = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd });

/** Lints `code` as if it lived at `filePath`, returning the rule ids that fired. */
async function rulesFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${cwd}${filePath}` });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

// The first lint of a run loads the whole config (type-aware resolvers): slow under load, not broken.
describe('import boundaries of CONVENTIONS.md', { timeout: 60_000 }, () => {
  it('a feature may not import another feature', async () => {
    const rules = await rulesFor(
      'src/features/faq/zz-probe.ts',
      "import { RELEASES } from '@/features/changelog/changelog-data';\nexport const x = RELEASES;\n",
    );
    expect(rules).toContain('import-x/no-restricted-paths');
  });

  it('any feature may import the shared catalogue feature, which imports no other', async () => {
    expect(
      await rulesFor(
        'src/features/faq/zz-probe.ts',
        "import { albumLabel } from '@/features/catalogue';\nexport const x = albumLabel;\n",
      ),
    ).toEqual([]);
    expect(
      await rulesFor(
        'src/features/catalogue/zz-probe.ts',
        "import { FAQ_ENTRIES } from '@/features/faq/faq-data';\nexport const x = FAQ_ENTRIES;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
  });

  it('a feature may import itself, lib and components', async () => {
    const rules = await rulesFor(
      'src/features/faq/zz-probe.ts',
      "import { FAQ_ENTRIES } from './faq-data';\nimport { PLANS } from '@/lib/plans';\nexport const x = [FAQ_ENTRIES, PLANS];\n",
    );
    expect(rules).toEqual([]);
  });

  it('lib may not import features, and features may not import app', async () => {
    expect(
      await rulesFor(
        'src/lib/zz-probe.ts',
        "import { FAQ_ENTRIES } from '@/features/faq/faq-data';\nexport const x = FAQ_ENTRIES;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
    expect(
      await rulesFor(
        'src/features/faq/zz-probe.ts',
        "import { router } from '@/app/router';\nexport const x = router;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
  });

  it.each([
    ['dexie', 'src/data/db/zz-probe.ts'],
    ['@supabase/supabase-js', 'src/data/remote/zz-probe.ts'],
    ['@supabase/auth-js', 'src/data/remote/zz-probe.ts'],
    ['@supabase/postgrest-js', 'src/data/remote/zz-probe.ts'],
    ['@supabase/realtime-js', 'src/data/remote/zz-probe.ts'],
  ])('%s is imported only by its owner folder', async (pkg, owner) => {
    const code = `import * as sdk from '${pkg}';\nexport const x = sdk;\n`;
    expect(await rulesFor('src/features/faq/zz-probe.ts', code)).toContain('no-restricted-imports');
    expect(await rulesFor('src/player/zz-probe.ts', code)).toContain('no-restricted-imports');
    expect(await rulesFor(owner, code)).not.toContain('no-restricted-imports');
  });

  it('nothing in src/ imports server/, tests and test helpers included; tests/support may', async () => {
    const probe = (from: string) =>
      `import { createUser } from '${from}';\nexport const x = createUser;\n`;
    for (const [file, path] of [
      ['src/data/zz-probe.ts', '../../server/db/test-factories'],
      ['src/data/sync/zz-probe.test.ts', '../../../server/db/test-factories'],
      ['src/test/zz-probe.ts', '../../server/db/test-factories'],
      ['src/features/faq/zz-probe.tsx', '../../../server/db/test-factories'],
    ] as const)
      expect([file, await rulesFor(file, probe(path))]).toEqual([
        file,
        ['import-x/no-restricted-paths'],
      ]);
    expect(
      await rulesFor('tests/support/zz-probe.ts', probe('../../server/db/test-factories')),
    ).toEqual([]);
  });

  it("an e2e spec takes Playwright's test from the CSP guard, never directly", async () => {
    expect(
      await rulesFor(
        'tests/e2e/zz-probe.spec.ts',
        "import { test } from '@playwright/test';\ntest('x', () => {});\n",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await rulesFor(
        'tests/e2e/zz-probe.spec.ts',
        "import { test } from './support/test';\ntest('x', () => {});\n",
      ),
    ).toEqual([]);
  });
});
