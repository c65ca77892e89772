/**
 * `npm run bench -- upload` (issue 14): a 5-minute 44.1 kHz stereo WAV and the same music as a
 * 320 kbps MP3, both made here (the seed's synthesiser; our LAME for the MP3), go through the
 * real server in a child process (bench/upload-server.ts) as the app sends them:
 * - upload MB/s over loopback with tus-js-client (6 MB chunks, as the app), each file 3 times;
 * - the track row inserted through supabase-js, then the processing job: its stages as the
 *   worker timed them (server/processing), and insert → ready as a client sees it;
 * - meanwhile a REST GET of the track's status every 50 ms (the app's own poll, a PGlite query on
 *   the server's event loop): its latency while the server processes and while it encodes;
 * - the same work done by Debian's ffmpeg on the same files in the same run (one process per
 *   step, each decoding the file again, and one process doing it all from one decode), as the
 *   reference. Skipped, with a line, when /usr/bin/ffmpeg is absent.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { Upload } from 'tus-js-client';
import { WebSocket } from 'ws';
import { encodeMp3 } from '../server/processing/encode-mp3';
import { renderSong } from '../server/seed/music/render';
import { startChildServer } from './child-server';
import { Cleanup } from './cleanup';
import { percentile } from './explore-catalogue';
import { wavOf } from './wav';

const RATE = 44_100;
const SECONDS = 300;
const UPLOADS = 3;
const POLL_MS = 50;
const FFMPEG = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';
/** As the app (src/data/remote/upload-remote.ts): Supabase takes TUS chunks of exactly 6 MB. */
const TUS_CHUNK_SIZE = 6 * 1024 * 1024;
const PROCESSING_TIMEOUT_MS = 15 * 60_000;
const GOAL_WAV_TOTAL_MS = 20_000;

interface ServerInfo {
  url: string;
  anonKey: string;
  token: string;
  userId: string;
}

interface Sample {
  ms: number;
  stage: string | null;
}

interface Processed {
  /** Insert answered → the poll saw 'ready' (at most POLL_MS late). */
  totalMs: number;
  /** CPU time of the server process over the same span (all threads; the polls included). */
  cpuMs: number;
  status: string;
  reason: string | null;
  lufs: number | null;
  truePeak: number | null;
  samples: Sample[];
  /** Stage → ms, from the server's processing log line. */
  stages: Record<string, number> | null;
}

interface Reference {
  decode: number;
  peaks: number;
  loudness: number;
  standard: number;
  high: number | null;
  onePass: number;
  /** CPU time (user + system) of the one process, by ffmpeg's -benchmark. */
  onePassCpu: number | null;
  lufs: number | null;
  truePeak: number | null;
  samplePeak: number | null;
}

const la = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const s = (ms: number | null | undefined) =>
  ms === null || ms === undefined || !Number.isFinite(ms) ? '–' : (ms / 1000).toFixed(2);

/** Five minutes of the seed's synthwave, stereo (the right channel slowly apart from the left). */
function makeMusic(): Float32Array[] {
  const song = renderSong('synthwave', SECONDS, 'bench-upload', RATE);
  const left = song.samples.slice(0, SECONDS * RATE);
  const right = left.map((v, i) => v * (0.9 + 0.1 * Math.sin(i / RATE)));
  return [left, right];
}

function tusUpload(server: ServerInfo, bytes: Uint8Array, objectName: string, type: string) {
  return new Promise<number>((resolve, reject) => {
    const started = performance.now();
    const upload = new Upload(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      endpoint: `${server.url}/storage/v1/upload/resumable`,
      retryDelays: [],
      headers: {
        authorization: `Bearer ${server.token}`,
        apikey: server.anonKey,
        'x-upsert': 'false',
      },
      uploadDataDuringCreation: true,
      removeFingerprintOnSuccess: true,
      metadata: { bucketName: 'tracks', objectName, contentType: type, cacheControl: '3600' },
      chunkSize: TUS_CHUNK_SIZE,
      onError: reject,
      onSuccess: () => resolve(performance.now() - started),
    });
    upload.start();
  });
}

/** Polls the track's status every POLL_MS (never waiting for the previous answer) until done. */
function watch(
  server: ServerInfo,
  trackId: string,
): Promise<Omit<Processed, 'stages' | 'totalMs' | 'cpuMs'>> {
  const url = `${server.url}/rest/v1/tracks?id=eq.${trackId}&select=status,processing_stage,status_reason,loudness_lufs,true_peak_db`;
  const headers = { apikey: server.anonKey, authorization: `Bearer ${server.token}` };
  const samples: Sample[] = [];
  return new Promise((resolve, reject) => {
    let done = false;
    const deadline = setTimeout(() => {
      clearInterval(timer);
      reject(new Error(`track ${trackId} not processed in ${PROCESSING_TIMEOUT_MS / 60_000} min`));
    }, PROCESSING_TIMEOUT_MS);
    const probe = async () => {
      const t0 = performance.now();
      const res = await fetch(url, { headers });
      const [row] = (await res.json()) as {
        status: string;
        processing_stage: string | null;
        status_reason: string | null;
        loudness_lufs: number | null;
        true_peak_db: number | null;
      }[];
      if (done || !row) return;
      samples.push({ ms: performance.now() - t0, stage: row.processing_stage });
      if (row.status === 'processing') return;
      done = true;
      clearInterval(timer);
      clearTimeout(deadline);
      resolve({
        status: row.status,
        reason: row.status_reason,
        lufs: row.loudness_lufs,
        truePeak: row.true_peak_db,
        samples,
      });
    };
    const timer = setInterval(() => {
      probe().catch((error: unknown) => {
        done = true;
        clearInterval(timer);
        clearTimeout(deadline);
        reject(error as Error);
      });
    }, POLL_MS);
  });
}

/** Stage timings of `processing: <id> ready (<format>, <s> s, <stage> <n> ms, ...)` (jobs.ts). */
function stagesOf(logs: string[], trackId: string): Record<string, number> | null {
  const line = logs.find((l) => l.startsWith(`processing: ${trackId} ready (`));
  if (!line) return null;
  return Object.fromEntries(
    [...line.matchAll(/(\w+) (\d+) ms/g)].map((m) => [m[1] as string, Number(m[2])]),
  );
}

/** Runs ffmpeg: wall time, and CPU time from its `-benchmark` line (utime + stime). */
function run(args: string[]): Promise<{ ms: number; cpuMs: number | null; stderr: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      FFMPEG,
      ['-benchmark', ...args],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (error) reject(new Error(`ffmpeg ${args.join(' ')}: ${stderr || error.message}`));
        const bench = /bench: utime=([\d.]+)s stime=([\d.]+)s/.exec(stderr);
        const cpuMs = bench ? (Number(bench[1]) + Number(bench[2])) * 1000 : null;
        resolve({ ms: performance.now() - started, cpuMs, stderr });
      },
    );
  });
}

async function serverCpuMs(server: ServerInfo): Promise<number> {
  const { user, system } = (await (await fetch(`${server.url}/_bench/cpu`)).json()) as {
    user: number;
    system: number;
  };
  return (user + system) / 1000;
}

/** The same work as our pipeline, by ffmpeg: decode, peaks, loudness, renditions; and all at once. */
async function reference(input: string, dir: string, high: boolean): Promise<Reference> {
  // Info level: ebur128's summary and -benchmark's CPU line are printed there.
  const base = ['-nostdin', '-hide_banner', '-v', 'info', '-i', input];
  const out = (name: string) => ['-y', join(dir, name)];
  const decode = await run([...base, '-f', 'f32le', '-y', '/dev/null']);
  const peaks = await run([
    ...base,
    '-filter_complex',
    'showwavespic=s=1000x200',
    '-frames:v',
    '1',
    ...out('peaks.png'),
  ]);
  const loudness = await run([...base, '-af', 'ebur128=peak=sample+true', '-f', 'null', '-']);
  const lame = (kbps: number) => ['-c:a', 'libmp3lame', '-b:a', `${kbps}k`];
  const standard = await run([...base, ...lame(128), ...out('standard.mp3')]);
  const highRun = high ? await run([...base, ...lame(320), ...out('high.mp3')]) : null;
  const split = high ? 4 : 3;
  const onePass = await run([
    ...base,
    '-filter_complex',
    `[0:a]asplit=${split}[l][w][s]${high ? '[h]' : ''};[l]ebur128=peak=true,anullsink;` +
      '[w]showwavespic=s=1000x200[pic]',
    '-map',
    '[pic]',
    '-frames:v',
    '1',
    ...out('all.png'),
    '-map',
    '[s]',
    ...lame(128),
    ...out('all-standard.mp3'),
    ...(high ? ['-map', '[h]', ...lame(320), ...out('all-high.mp3')] : []),
  ]);
  // The ebur128 summary: "I: -14.2 LUFS" and, under "True peak:", "Peak: -0.7 dBFS".
  const summary = loudness.stderr.slice(loudness.stderr.lastIndexOf('Summary:'));
  const number = (re: RegExp) => {
    const m = re.exec(summary);
    return m ? Number(m[1]) : null;
  };
  return {
    decode: decode.ms,
    peaks: peaks.ms,
    loudness: loudness.ms,
    standard: standard.ms,
    high: highRun?.ms ?? null,
    onePass: onePass.ms,
    onePassCpu: onePass.cpuMs,
    lufs: number(/I:\s+(-?[\d.]+) LUFS/),
    truePeak: number(/True peak:\s+Peak:\s+(-?[\d.]+) dBFS/),
    samplePeak: number(/Sample peak:\s+Peak:\s+(-?[\d.]+) dBFS/),
  };
}

function latencyLine(label: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return (
    `    ${label}: n=${sorted.length}, p50 ${percentile(sorted, 50).toFixed(1)} ms, ` +
    `p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${(sorted[sorted.length - 1] ?? NaN).toFixed(1)} ms`
  );
}

interface FileCase {
  label: string;
  name: string;
  type: string;
  bytes: Uint8Array;
  /** Our pipeline encodes 320 kbps (a lossless source); a 320 kbps MP3 is kept as it is. */
  high: boolean;
}

export async function benchUpload(): Promise<void> {
  console.log(
    `\nUpload and processing (issue 14): ${SECONDS / 60}-minute files through the real server; load average ${la()} before`,
  );
  const cleanup = new Cleanup();
  /** The server alone, stopped before ffmpeg runs so that nothing else holds the cores. */
  const serverCleanup = new Cleanup();
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: cleaning up`);
    void serverCleanup
      .run()
      .then(() => cleanup.run())
      .finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const dir = await mkdtemp(join(tmpdir(), 'soundloft-bench-upload-'));
    cleanup.add(`remove ${dir}`, () => rm(dir, { recursive: true, force: true }));

    let t0 = performance.now();
    const music = makeMusic();
    const renderMs = performance.now() - t0;
    t0 = performance.now();
    const wav = wavOf(music, RATE);
    const mp3 = await encodeMp3(music, RATE, 320);
    console.log(
      `  made here: ${SECONDS} s of the seed's synthwave in ${s(renderMs)} s; a 16-bit stereo 44.1 kHz WAV ` +
        `(${(wav.length / 1e6).toFixed(1)} MB) and a 320 kbps CBR MP3 (${(mp3.length / 1e6).toFixed(1)} MB) in ${s(performance.now() - t0)} s`,
    );
    await writeFile(join(dir, 'in.wav'), wav);
    await writeFile(join(dir, 'in.mp3'), mp3);

    const logs: string[] = [];
    const dataDir = join(dir, 'data');
    const server = await startChildServer<ServerInfo>(
      'bench/upload-server.ts',
      { UPLOAD_BENCH_DATA_DIR: dataDir, PROCESSING_WORKERS: '2' },
      serverCleanup,
      'upload bench server',
      (line) => logs.push((JSON.parse(line) as { log: string }).log),
    );
    console.log(
      `  server: startBackend + createApp in a child process on ${server.url} (PGlite and files on disk, ` +
        '2 processing workers); the audio limit raised from 50 MiB to 64 MiB for this run, since the ' +
        '5-minute WAV is over 50 MiB (a 16-bit stereo 44.1 kHz WAV fits 4 min 57 s)',
    );
    const supabase = createClient(server.url, server.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      // Node 20 has no WebSocket; ws's constructor is wider than supabase-js's type.
      realtime: { transport: WebSocket as never },
      global: { headers: { authorization: `Bearer ${server.token}` } },
    });

    const cases: FileCase[] = [
      { label: 'WAV 44.1 kHz stereo', name: 'in.wav', type: 'audio/wav', bytes: wav, high: true },
      { label: 'MP3 320 kbps', name: 'in.mp3', type: 'audio/mpeg', bytes: mp3, high: false },
    ];
    const ours: Processed[] = [];
    const uploads: number[][] = [];
    for (const file of cases) {
      const times: number[] = [];
      let objectName = '';
      for (let i = 0; i < UPLOADS; i++) {
        objectName = `${server.userId}/${Date.now()}_bench_${i}_${file.name.replace('.', '_')}`;
        times.push(await tusUpload(server, file.bytes, objectName, file.type));
      }
      uploads.push(times);
      const cpuBefore = await serverCpuMs(server);
      const inserted = performance.now();
      const { data, error } = await supabase
        .from('tracks')
        .insert({
          title: `Bench ${file.label}`,
          artist: 'Bench Artist',
          audio_url: `tracks/${objectName}`,
          uploaded_by: server.userId,
        })
        .select('id')
        .single();
      if (error || !data) throw new Error(`track insert: ${error?.message ?? 'no row'}`);
      const watched = await watch(server, data.id);
      const totalMs = performance.now() - inserted;
      const cpuMs = (await serverCpuMs(server)) - cpuBefore;
      // The log line is written just before the row turns ready; give the pipe a moment.
      await new Promise((resolve) => setTimeout(resolve, 200));
      ours.push({ ...watched, totalMs, cpuMs, stages: stagesOf(logs, data.id) });
      if (watched.status !== 'ready')
        console.log(`  ${file.label}: ${watched.status} (${watched.reason ?? 'no reason'})`);
    }
    const loadAfterOurs = la();
    await serverCleanup.run();

    const hasFfmpeg = existsSync(FFMPEG);
    const refs: (Reference | null)[] = [];
    for (const file of cases)
      refs.push(hasFfmpeg ? await reference(join(dir, file.name), dir, file.high) : null);
    const loadAfterRefs = la();

    console.log('  upload (tus-js-client, 6 MB chunks, loopback), MB = 10^6 bytes:');
    cases.forEach((file, i) => {
      const times = [...(uploads[i] ?? [])].sort((a, b) => a - b);
      const rate = (ms: number) => (file.bytes.length / 1e6 / (ms / 1000)).toFixed(1);
      console.log(
        `    ${file.label.padEnd(20)} ${(file.bytes.length / 1e6).toFixed(1)} MB: ${rate(percentile(times, 50))} MB/s p50, ` +
          `${rate(times[0] ?? NaN)} MB/s best (${UPLOADS} uploads, ${s(percentile(times, 50))} s p50)`,
      );
    });

    console.log(
      `  processing, seconds (ours: the worker's stages; the two encodes run at once, one on a helper thread, the first beside loudness; ffmpeg ${hasFfmpeg ? '5.1: one process per step, each decoding the file again' : 'absent'}):`,
    );
    const head = ['', ...cases.flatMap((f) => [`${f.label}: ours`, 'ffmpeg', 'ratio'])];
    const rows: string[][] = [];
    const row = (
      label: string,
      pick: (o: Processed) => number | null | undefined,
      ref: (r: Reference) => number | null,
    ) =>
      rows.push([
        label,
        ...cases.flatMap((_, i) => {
          const o = ours[i] ? pick(ours[i]) : null;
          const r = refs[i] ? ref(refs[i]) : null;
          const ratio = o && r ? `${(o / r).toFixed(1)}×` : '–';
          return [s(o), s(r), ratio];
        }),
      ]);
    row(
      'checking (music-metadata)',
      (o) => o.stages?.checking,
      () => null,
    );
    row(
      'decode',
      (o) => o.stages?.decoding,
      (r) => r.decode,
    );
    row(
      'peaks (showwavespic)',
      (o) => o.stages?.waveform,
      (r) => r.peaks,
    );
    row(
      'loudness + true peak (ebur128)',
      (o) => o.stages?.loudness,
      (r) => r.loudness,
    );
    row(
      '128 kbps (LAME)',
      (o) => o.stages?.standard,
      (r) => r.standard,
    );
    row(
      '320 kbps (LAME; the MP3 is kept)',
      (o) => (o.stages?.high ? o.stages.high : null),
      (r) => r.high,
    );
    row(
      'worker total | ffmpeg all in one process',
      (o) => o.stages?.total,
      (r) => r.onePass,
    );
    row(
      'insert → ready (client) | one process',
      (o) => o.totalMs,
      (r) => r.onePass,
    );
    row(
      'CPU time: server process | one process',
      (o) => o.cpuMs,
      (r) => r.onePassCpu,
    );
    const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
    for (const cells of [head, ...rows])
      console.log(
        '    ' +
          cells
            .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
            .join('  '),
      );
    cases.forEach((file, i) => {
      const o = ours[i];
      const r = refs[i];
      console.log(
        `    ${file.label}: ours ${o?.lufs ?? '–'} LUFS, ${o?.truePeak ?? '–'} dBTP; ` +
          `ffmpeg ebur128 ${r?.lufs ?? '–'} LUFS, ${r?.truePeak ?? '–'} dBTP (sample peak ${r?.samplePeak ?? '–'} dBFS)`,
      );
    });
    if (!hasFfmpeg)
      console.log(`    (no ${FFMPEG}: the reference is skipped; FFMPEG_PATH points at another)`);

    console.log(
      `  the server meanwhile: a REST GET of the track's status every ${POLL_MS} ms, latency:`,
    );
    cases.forEach((file, i) => {
      const samples = ours[i]?.samples ?? [];
      console.log(
        latencyLine(
          `${file.label}, whole processing`,
          samples.map((x) => x.ms),
        ),
      );
      const encoding = samples.filter((x) => x.stage === 'encoding').map((x) => x.ms);
      console.log(latencyLine(`${file.label}, while encoding`, encoding));
    });

    const wavOurs = ours[0]?.totalMs ?? NaN;
    const wavRef = refs[0]?.onePass ?? null;
    const encodingP95 = cases.map((_, i) =>
      percentile(
        (ours[i]?.samples ?? [])
          .filter((x) => x.stage === 'encoding')
          .map((x) => x.ms)
          .sort((a, b) => a - b),
        95,
      ),
    );
    console.log(
      `  goals: WAV insert → ready ${s(wavOurs)} s (≤ ${GOAL_WAV_TOTAL_MS / 1000} s: ${wavOurs <= GOAL_WAV_TOTAL_MS ? 'met' : 'missed'}); ` +
        `${wavRef ? `${(wavOurs / wavRef).toFixed(1)}× ffmpeg's one process (≤ 5×: ${wavOurs <= 5 * wavRef ? 'met' : 'missed'})` : 'no ffmpeg reference'}; ` +
        `GET p95 while encoding ${encodingP95.map((p) => p.toFixed(0)).join(' / ')} ms (≤ 100 ms: ${encodingP95.every((p) => p <= 100) ? 'met' : 'missed'})`,
    );
    const wavCpu = ours[0]?.cpuMs ?? NaN;
    const wavRefCpu = refs[0]?.onePassCpu ?? null;
    console.log(
      `  the same in CPU time, which other work on the machine does not stretch: WAV ${s(wavCpu)} s ` +
        `(an otherwise idle machine needs no more wall time than that, plus up to 0.5 s of queue polling; ` +
        `≤ ${GOAL_WAV_TOTAL_MS / 1000} s: ${wavCpu <= GOAL_WAV_TOTAL_MS ? 'met' : 'missed'}); ` +
        `${wavRefCpu ? `${(wavCpu / wavRefCpu).toFixed(1)}× ffmpeg's ${s(wavRefCpu)} s (≤ 5×: ${wavCpu <= 5 * wavRefCpu ? 'met' : 'missed'})` : 'no ffmpeg reference'}`,
    );
    console.log(
      `  load average ${loadAfterOurs} after our runs, ${loadAfterRefs} after ffmpeg's (2 cores: above 2 means other work shared them)`,
    );
  } finally {
    await serverCleanup.run();
    await cleanup.run();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
