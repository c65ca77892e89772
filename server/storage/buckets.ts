/** Read-only bucket API (`listBuckets`, `getBucket`): buckets come from migrations. */
import { asRole } from '../db/as-role';
import type { Database } from '../db/database';
import { StorageError } from './errors';
import type { Caller } from './objects';

const iso = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${column}`;
const COLUMNS = `id, name, owner, public, file_size_limit::float8 as file_size_limit,
  allowed_mime_types, ${iso('created_at')}, ${iso('updated_at')}`;

export async function listBuckets(db: Database, caller: Caller) {
  const { rows } = await asRole(
    db,
    caller.claims,
    (tx) => tx.query(`select ${COLUMNS} from storage.buckets order by name`),
    caller.request,
  );
  return rows;
}

export async function getBucket(db: Database, caller: Caller, id: string) {
  const { rows } = await asRole(
    db,
    caller.claims,
    (tx) => tx.query(`select ${COLUMNS} from storage.buckets where id = $1`, [id]),
    caller.request,
  );
  if (!rows[0]) throw StorageError.bucketNotFound();
  return rows[0];
}
