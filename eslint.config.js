// @ts-check
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Resolves the app's `@/x` alias (tsconfig.app.json paths) to `src/x` for the boundary rules. */
const srcDir = fileURLToPath(new URL('./src/', import.meta.url));
const aliasResolver = {
  interfaceVersion: 3,
  name: 'soundloft-alias',
  resolve(source) {
    if (!source.startsWith('@/')) return { found: false };
    const base = srcDir + source.slice(2);
    for (const candidate of [
      base,
      ...['.ts', '.tsx', '/index.ts', '/index.tsx'].map((e) => base + e),
    ]) {
      if (existsSync(candidate) && statSync(candidate).isFile())
        return { found: true, path: candidate };
    }
    return { found: false };
  },
};

/** Vendor SDKs with exactly one owner folder each (CONVENTIONS.md, habit 2). */
const SUPABASE = [
  '@supabase/supabase-js',
  '@supabase/auth-js',
  '@supabase/postgrest-js',
  '@supabase/functions-js',
  '@supabase/storage-js',
  '@supabase/realtime-js',
];
const SDKS = ['dexie', 'dexie-react-hooks', ...SUPABASE];
/** Later entries win for files they match, so the most specific folders come last. */
const SDK_SCOPES = [
  { files: ['src/**/*.{ts,tsx}', 'sw/**/*.ts'], allowed: [] },
  { files: ['src/data/**/*.{ts,tsx}'], allowed: ['dexie-react-hooks'] },
  { files: ['src/data/db/**/*.{ts,tsx}'], allowed: ['dexie', 'dexie-react-hooks'] },
  {
    files: ['src/data/remote/**/*.{ts,tsx}'],
    allowed: [...SUPABASE, 'dexie-react-hooks'],
  },
];
const OWNER = {
  dexie: 'src/data/db/',
  'dexie-react-hooks': 'src/data/',
  ...Object.fromEntries(SUPABASE.map((name) => [name, 'src/data/remote/'])),
};
const sdkRules = SDK_SCOPES.map(({ files, allowed }) => {
  const banned = SDKS.filter((name) => !allowed.includes(name));
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: banned.map((name) => ({
            name,
            message: `${name} is imported only in ${OWNER[name]} (CONVENTIONS.md).`,
          })),
          patterns: banned.map((name) => ({
            group: [`${name}/*`],
            message: `${name} is imported only in ${OWNER[name]}.`,
          })),
        },
      ],
    },
  };
});

const FEATURES = 'src/features';
/**
 * The one shared feature: `catalogue` holds the domain UI every screen shows (track list, track
 * menu, covers, playlist cards). Any feature may import it; it imports no other feature.
 */
const SHARED_FEATURE = 'catalogue';
/** One zone per feature: it may import itself, never a sibling (bulletproof-react's rule). */
const featureZones = readdirSync(new URL('./src/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => ({
    target: `./${FEATURES}/${entry.name}`,
    from: `./${FEATURES}`,
    except:
      entry.name === SHARED_FEATURE
        ? [`./${entry.name}`]
        : [`./${entry.name}`, `./${SHARED_FEATURE}`],
    message: 'Features do not import each other; compose them in a route.',
  }));

/**
 * src/ is the app: nothing in it, tests included, imports the server. Test infrastructure that
 * runs server code lives in tests/support/.
 */
const SERVER_ZONE = {
  target: './src',
  from: './server',
  message: 'src/ never imports server/; put server-backed test helpers in tests/support/.',
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'src/routeTree.gen.ts',
      'src/data/remote/database.types.ts',
      'test-results/**',
      'playwright-report/**',
      '.data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        aliasResolver,
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] }),
      ],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'sw/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/test/**'],
    rules: {
      // Imports flow one way: lib/components → data → player → features → routes → app.
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            SERVER_ZONE,
            ...featureZones,
            {
              target: ['./src/lib', './src/components'],
              from: ['./src/data', './src/player', './src/features', './src/routes', './src/app'],
              message: 'lib/ and components/ are domain-free.',
            },
            {
              target: './src/data',
              from: ['./src/player', './src/features', './src/routes', './src/app'],
              message: 'data/ sits below player, features, routes and app.',
            },
            {
              target: './src/player',
              from: ['./src/features', './src/routes', './src/app'],
              message: 'player/ sits below features, routes and app.',
            },
            {
              target: './src/features',
              from: ['./src/routes', './src/app'],
              message: 'Features sit below routes and app.',
            },
            { target: './src/routes', from: ['./src/app'], message: 'Routes sit below app.' },
          ],
        },
      ],
    },
  },
  {
    // The app's tests and test helpers follow the server rule too (the layers above are for
    // app code only).
    files: ['src/**/*.test.{ts,tsx}', 'src/test/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: [SERVER_ZONE] },
      ],
    },
  },
  // One owner per vendor SDK.
  ...sdkRules,
  {
    files: [
      'server/**/*.ts',
      'scripts/**/*.ts',
      'tests/**/*.ts',
      'bench/**/*.{ts,mjs}',
      '*.config.{ts,js}',
      'supabase/**/*.ts',
    ],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-console': 'off' },
  },
  {
    // Tests may assert presence with `!`: a wrong guess fails the test, which is the point.
    files: ['**/*.test.{ts,tsx}', 'tests/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Every e2e spec runs under the CSP guard (a violation fails the test): tests/e2e/support/test.ts.
    files: ['tests/e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              message:
                "Import from './support/test' (Playwright's test with the CSP guard, docs/production.md).",
            },
          ],
        },
      ],
    },
  },
);
