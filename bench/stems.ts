/**
 * `npm run bench -- stems`: the time of the whole stems job (decode, separate, encode four MP3s)
 * on a 3-minute stereo MP3 and of the separation alone, then the separation's quality on ground
 * truth (bench/stems-quality.ts: the demo catalogue rendered with its true stems; BSS Eval SDR and
 * SI-SDR per stem next to the mixture baseline, the ideal ratio mask and published MUSDB18
 * figures). `STEMS_BENCH_TRACKS=all` scores all 42 catalogue songs instead of one per genre;
 * `STEMS_BENCH_COMPARE=1` adds the separator's earlier settings (the comparison in docs/stems.md);
 * `STEMS_BENCH_QUALITY=0` measures the time only.
 */
import { loadavg } from 'node:os';
import { encodeMp3 } from '../server/processing/encode-mp3';
import { renderSong } from '../server/seed/music/render';
import { separateFileOnWorker, separateOnWorker } from '../server/stems/on-worker';
import { type Tuning } from '../server/stems/separate';
import {
  baseline,
  oracle,
  printTable,
  qualityTracks,
  renderTruth,
  scoreMethods,
  type Method,
} from './stems-quality';

const RATE = 44100;
const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** CPU time of this process (all its threads, the workers included) since `from`. */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return s((used.user + used.system) / 1000);
};

/** The separator on its worker, as the job runs it, with some settings changed. */
const separator =
  (tuning: Partial<Tuning> = {}): Method =>
  async (mixture) =>
    separateOnWorker([mixture], 22050, undefined, tuning);

export async function benchStems(): Promise<void> {
  console.log('\nStems (server/stems, classical DSP on a worker thread)');
  const song = renderSong('synthwave', 180, 'bench-stems', RATE);
  const seconds = song.samples.length / RATE;

  // The job's whole path (what the spleeter function waits for): a stereo 320 kbps MP3 of the
  // song decoded, separated and encoded to four 128 kbps stems (two of them on a helper worker).
  const right = song.samples.map((v, i) => v * (0.9 + 0.1 * Math.sin(i / 44100)));
  const mp3 = await encodeMp3([song.samples, right], RATE, 320);
  console.log(`  before: ${load()}`);
  const t1 = performance.now();
  const cpu1 = process.cpuUsage();
  const job = await separateFileOnWorker(mp3);
  const jobMs = performance.now() - t1;
  const jobCpu = cpuSince(cpu1);
  console.log(
    `  the stems job on a ${job.seconds.toFixed(0)} s stereo MP3 (decode, separate, encode 4 MP3s): ` +
      `${s(jobMs)} (decode ${s(job.timings.decode)}, separate ${s(job.timings.separate)}, ` +
      `encode ${s(job.timings.encode)}; CPU time ${jobCpu} on 2 threads; goal ≤ 30 s; ${load()})`,
  );
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await separateOnWorker([song.samples, right], RATE);
  const ms = performance.now() - t0;
  console.log(
    `  separation alone of the same ${seconds.toFixed(0)} s (stereo, 44.1 kHz): ${s(ms)} ` +
      `(${(seconds / (ms / 1000)).toFixed(1)}× real time; CPU time ${cpuSince(cpu0)}; ${load()})`,
  );
  if (process.env.STEMS_BENCH_QUALITY === '0') return;

  const all = process.env.STEMS_BENCH_TRACKS === 'all';
  const tracks = qualityTracks(all);
  const t2 = performance.now();
  const songs = tracks.map(renderTruth);
  const total = songs.reduce((sum, x) => sum + x.mixture.length / 22050, 0);
  console.log(
    `\n  Quality on ground truth: ${tracks.length} demo songs (${all ? 'the whole catalogue' : 'one per genre'}, ` +
      `${(total / 60).toFixed(1)} min, mono 22.05 kHz as seeded; rendered with their true stems in ${s(performance.now() - t2)})`,
  );
  console.log(
    '  BSS Eval SDR (512-tap filter) / SI-SDR, dB, median over 1 s windows, then over songs (higher is better)',
  );
  const methods: Record<string, Method> = {
    'baseline (stem = mixture, scaled)': baseline,
    'ideal ratio mask (oracle)': oracle,
    'Soundloft (server/stems)': separator(),
  };
  if (process.env.STEMS_BENCH_COMPARE === '1') {
    Object.assign(methods, {
      'HPSS + bands + centre (session 6)': separator({ repet: false, lowTimeMedian: 17 }),
      '  + REPET vocals, 3 periods': separator({ lowTimeMedian: 17, repetPeriods: 3 }),
      '  + REPET vocals, 5 periods': separator({ lowTimeMedian: 17 }),
      '  + REPET, 5 periods, low median 31': separator({ lowTimeMedian: 31 }),
    });
  }
  const t3 = performance.now();
  printTable(await scoreMethods(songs, methods));
  console.log(`  (scored in ${s(performance.now() - t3)}; ${load()})`);
  console.log(
    '  Not comparable one to one: MUSDB18 is real mixed music (museval on stereo, 44.1 kHz); ours is\n' +
      '  the synthesised catalogue, mono, whose "vocals" are the lead synth part.',
  );
}
