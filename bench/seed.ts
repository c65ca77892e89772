/**
 * First-start seeding time (issue 4): the full demo catalogue seeded into a fresh in-memory
 * database and object store by server/seed/measure.ts (migrations excluded), twice with one
 * fresh track cache in a temporary directory: cold (every track synthesised and encoded, as on a
 * fresh machine), then cached (the tracks read back, as a reseed or an e2e run). The shared
 * cache in $TMPDIR/soundloft-seed-cache is neither read nor written.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureSeeding } from '../server/seed/measure';

type Measured = Awaited<ReturnType<typeof measureSeeding>>;

const la = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function printRun(label: string, m: Measured, wallMs: number, before: number[], after: number[]) {
  const bytes = Number(m.bytes ?? NaN);
  const audio = Number(m.seconds ?? NaN);
  console.log(
    `  ${label}: seeded in ${s(m.result.ms)} (${m.result.seeded ? 'seeded' : 'NOT seeded'}: ` +
      `${m.tracks ?? '?'} tracks, ${(audio / 60).toFixed(0)} min of audio, ${(bytes / 1e6).toFixed(1)} MB of files); ` +
      `CPU time, all threads ${s(m.cpuMs)}; with migrations ${s(wallMs)}; ` +
      `load average ${la(before)} before, ${la(after)} after`,
  );
  for (const line of m.log.filter((l) => l.includes('generated'))) console.log(`    ${line}`);
}

/** `npm run bench -- seed`. The temporary track cache always goes. */
export async function benchSeed(): Promise<void> {
  console.log(
    `\nSeeding the demo catalogue on first start (issue 4: under a minute here); ${cpus().length} cores`,
  );
  const cacheDir = await mkdtemp(join(tmpdir(), 'soundloft-bench-seed-cache-'));
  let peakLoad = 0;
  try {
    for (const label of ['cold (empty track cache)', 'cached (same cache, reseed)']) {
      const before = loadavg();
      const started = performance.now();
      const m = await measureSeeding({ cacheDir });
      const after = loadavg();
      peakLoad = Math.max(peakLoad, before[0] ?? 0, after[0] ?? 0);
      printRun(label, m, performance.now() - started, before, after);
    }
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
  if (peakLoad > cpus().length)
    console.log(
      `  ! 1-minute load average up to ${peakLoad.toFixed(1)} on ${cpus().length} cores: other work shared the CPU, wall times are inflated.`,
    );
  console.log(
    [
      '  seeded in: seedDemoCatalogue (generation on 2 worker threads, uploads, one transaction);',
      '  with migrations: the whole measureSeeding() call (a fresh migrated in-memory PGlite first).',
      '  CPU time is the figure to compare across machines and loads (docs/seed.md).',
    ].join('\n'),
  );
}
