/**
 * `npx tsx server/seed/measure.ts [--limit N] [--workers N] [--cache | --cache-dir DIR]`: times a first-start seeding of the
 * full demo catalogue into a fresh in-memory database and object store (migrations excluded),
 * and prints the generation split. A figure for docs/seed.md and `npm run bench`; never a test.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { syncAdmins } from '../db/admins';
import { openTestDatabase } from '../db/test-database';
import { openObjectStore } from '../storage/object-store';
import { seedDemoCatalogue } from './index';

export async function measureSeeding(
  opts: { limit?: number; workers?: number; cacheDir?: string | false } = {},
) {
  const test = await openTestDatabase();
  try {
    const adminEmails = ['admin@soundloft.local'];
    await syncAdmins(test.db, adminEmails);
    const lines: string[] = [];
    const cpu = process.cpuUsage();
    const result = await seedDemoCatalogue(test.db, openObjectStore('memory'), {
      adminEmails,
      ...opts,
      log: (m) => lines.push(m),
    });
    const { rows } = await test.db.query<{ tracks: string; seconds: string; bytes: string }>(
      `select (select count(*) from public.tracks) as tracks,
              (select sum(duration) from public.tracks) as seconds,
              (select sum((metadata ->> 'size')::bigint) from storage.objects) as bytes`,
    );
    const used = process.cpuUsage(cpu);
    return { result, log: lines, cpuMs: (used.user + used.system) / 1000, ...rows[0] };
  } finally {
    await test.close();
  }
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const { values } = parseArgs({
    options: {
      limit: { type: 'string' },
      workers: { type: 'string' },
      cache: { type: 'boolean' },
      'cache-dir': { type: 'string' },
    },
  });
  console.log(
    `${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const m = await measureSeeding({
    ...(values.limit ? { limit: Number(values.limit) } : {}),
    ...(values.workers ? { workers: Number(values.workers) } : {}),
    // Cold by default (a fresh machine); --cache measures a reseed with a warm track cache.
    // --cache-dir measures with a cache of its own (the shared one stays as it is).
    cacheDir: values['cache-dir'] ?? (values.cache ? undefined : false),
  });
  for (const line of m.log) console.log(line);
  console.log(
    `seeded ${m.tracks} tracks (${Math.round(Number(m.seconds) / 60)} min of audio, ${(Number(m.bytes) / 1e6).toFixed(1)} MB of files) in ${(m.result.ms / 1000).toFixed(1)} s`,
  );
  console.log(`CPU time, all threads: ${(m.cpuMs / 1000).toFixed(1)} s`);
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}
