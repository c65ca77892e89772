/**
 * `npm run gen:types`: writes src/data/remote/database.types.ts (the `supabase gen types`
 * shape) from the migrations, applied to a fresh in-memory database. A test fails when the
 * committed file is out of date.
 */
import { writeFileSync } from 'node:fs';
import { generateTypes } from '../server/db/gen-types';
import { openTestDatabase } from '../server/db/test-database';

const TYPES_FILE = new URL('../src/data/remote/database.types.ts', import.meta.url);

const test = await openTestDatabase({});
try {
  writeFileSync(TYPES_FILE, await generateTypes(test.db));
  console.log(`wrote ${TYPES_FILE.pathname}`);
} finally {
  await test.close();
}
