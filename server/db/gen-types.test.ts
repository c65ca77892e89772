import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateTypes } from './gen-types';
import { DATABASE_HOOK_TIMEOUT_MS } from './test-database';
import { useTestDatabase } from './use-test-database';

const test = useTestDatabase();
let types: string;
beforeAll(async () => {
  types = await generateTypes(test.db);
}, DATABASE_HOOK_TIMEOUT_MS);
describe('generateTypes', () => {
  it('writes tables with Row, Insert (defaults optional) and Update, and their relationships', () => {
    expect(types).toContain('export type Database = {');
    expect(types).toMatch(/tracks: \{\n {8}Row: \{[^}]*plays: number\n[^}]*title: string\n/);
    expect(types).toMatch(
      /Insert: \{[^}]*plays\?: number\n[^}]*title: string\n[^}]*uploaded_by\?: string\n/,
    );
    expect(types).toContain('referencedRelation: "profiles"');
    expect(types).toMatch(/profiles_private: \{\n {8}Row: \{[^}]*balance: number \| null/);
  });

  it('writes RPC functions with optional defaulted arguments, and no trigger functions', () => {
    expect(types).toContain(
      'increment_track_plays: {\n        Args: { track_id: string; session_id?: string; played_at?: string }\n        Returns: boolean',
    );
    expect(types).toContain(
      'add_track_to_playlist: {\n        Args: { playlist_id: string; track_id: string }\n        Returns: string[]',
    );
    expect(types).not.toContain('handle_timestamps');
  });

  it('matches the committed src/data/remote/database.types.ts (run npm run gen:types)', () => {
    const committed = readFileSync(
      new URL('../../src/data/remote/database.types.ts', import.meta.url),
      'utf8',
    );
    expect(committed).toBe(types);
  });
});
