/**
 * `npm run bench -- stems`: separation time on a worker for a 3-minute demo song, and SI-SDR per
 * stem on a small synthetic stereo mixture whose true stems are known (a stand-in until the
 * seed's renderer can give its buses: see docs/stems.md), next to the trivial baseline (every
 * stem = the mixture; SI-SDR is scale-invariant, so scaling it changes nothing).
 */
import { renderSong } from '../server/seed/music/render';
import { encodeMp3 } from '../server/processing/encode-mp3';
import { separateFileOnWorker, separateOnWorker } from '../server/stems/on-worker';
import { STEM_NAMES, type StemName } from '../server/stems/separate';

const RATE = 44100;

/** Scale-invariant SDR in dB over all channels (Le Roux et al. 2019). */
function siSdr(reference: Float32Array[], estimate: Float32Array[]): number {
  let dot = 0;
  let refEnergy = 0;
  reference.forEach((r, c) => {
    const e = estimate[c] as Float32Array;
    for (let n = 0; n < r.length; n++) {
      dot += (r[n] as number) * (e[n] as number);
      refEnergy += (r[n] as number) ** 2;
    }
  });
  const alpha = dot / (refEnergy || 1);
  let target = 0;
  let noise = 0;
  reference.forEach((r, c) => {
    const e = estimate[c] as Float32Array;
    for (let n = 0; n < r.length; n++) {
      const t = alpha * (r[n] as number);
      target += t * t;
      noise += ((e[n] as number) - t) ** 2;
    }
  });
  return 10 * Math.log10(target / (noise || 1e-30));
}

/** 20 s of a known four-part stereo mixture: centred voice-like tone, drums, bass, panned chords. */
function syntheticMixture(): Record<StemName, Float32Array[]> {
  const length = 20 * RATE;
  const stems = Object.fromEntries(
    STEM_NAMES.map((name) => [name, [new Float32Array(length), new Float32Array(length)]]),
  ) as Record<StemName, Float32Array[]>;
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32 - 0.5;
  };
  const notes = [220, 247, 262, 294, 330, 294, 262, 247];
  for (let n = 0; n < length; n++) {
    const s = n / RATE;
    const beat = s * 2; // 120 bpm
    const note = notes[Math.floor(beat / 2) % notes.length] as number;
    const vib = note * (1 + 0.01 * Math.sin(2 * Math.PI * 5 * s));
    let voice = 0;
    for (let h = 1; h <= 6; h++) voice += Math.sin(2 * Math.PI * vib * h * s) / h;
    voice *= 0.15 * (beat % 4 < 3 ? 1 : 0);
    const sinceBeat = (beat % 1) / 2;
    const kick = 0.5 * Math.sin(2 * Math.PI * 55 * sinceBeat) * Math.exp(-sinceBeat * 30);
    const hat = rand() * Math.exp(-(((beat + 0.5) % 1) / 2) * 200) * 0.3;
    const bass =
      0.2 * Math.sin(2 * Math.PI * (notes[Math.floor(beat / 4) % 4] as number) * 0.25 * s);
    const chordL = 0.08 * (Math.sin(2 * Math.PI * 523 * s) + Math.sin(2 * Math.PI * 659 * s));
    const chordR = 0.08 * (Math.sin(2 * Math.PI * 784 * s) + Math.sin(2 * Math.PI * 1047 * s));
    for (const c of [0, 1]) {
      (stems.vocals[c] as Float32Array)[n] = voice;
      (stems.drums[c] as Float32Array)[n] = kick + hat;
      (stems.bass[c] as Float32Array)[n] = bass;
      (stems.other[c] as Float32Array)[n] = c === 0 ? chordL : chordR;
    }
  }
  return stems;
}

export async function benchStems(): Promise<void> {
  console.log('\nStems (server/stems, classical DSP on a worker thread)');
  const song = renderSong('synthwave', 180, 'bench-stems', RATE);
  const seconds = song.samples.length / RATE;
  const t0 = performance.now();
  await separateOnWorker([song.samples], RATE);
  const ms = performance.now() - t0;
  console.log(
    `  separation of a ${seconds.toFixed(0)} s demo song (mono, 44.1 kHz): ${(ms / 1000).toFixed(1)} s ` +
      `(${(seconds / (ms / 1000)).toFixed(1)}× real time; goal ≤ 30 s)`,
  );

  // The job's whole path (what the spleeter function waits for): a stereo 320 kbps MP3 of the
  // song decoded, separated and encoded to four 128 kbps stems on one worker.
  const right = song.samples.map((v, i) => v * (0.9 + 0.1 * Math.sin(i / 44100)));
  const mp3 = await encodeMp3([song.samples, right], RATE, 320);
  const t1 = performance.now();
  const job = await separateFileOnWorker(mp3);
  const jobMs = performance.now() - t1;
  console.log(
    `  the stems job on a ${job.seconds.toFixed(0)} s stereo MP3 (decode, separate, encode 4 MP3s): ` +
      `${(jobMs / 1000).toFixed(1)} s (decode ${(job.timings.decode / 1000).toFixed(1)} s, separate ` +
      `${(job.timings.separate / 1000).toFixed(1)} s, encode ${(job.timings.encode / 1000).toFixed(1)} s; goal ≤ 30 s)`,
  );

  const truth = syntheticMixture();
  const mixture = [0, 1].map((c) => {
    const m = new Float32Array((truth.vocals[0] as Float32Array).length);
    for (const name of STEM_NAMES) {
      const s = truth[name][c] as Float32Array;
      for (let n = 0; n < m.length; n++) m[n] = (m[n] as number) + (s[n] as number);
    }
    return m;
  });
  const stems = await separateOnWorker(mixture, RATE);
  console.log(
    '  SI-SDR on a 20 s synthetic stereo mixture with known stems (dB; higher is better)',
  );
  console.log('  stem     ours   baseline (mixture)   Spleeter on MUSDB18 (SDR, for scale)');
  const anchors: Record<StemName, string> = {
    vocals: '6.9',
    drums: '6.7',
    bass: '5.5',
    other: '4.6',
  };
  for (const name of STEM_NAMES) {
    const ours = siSdr(truth[name], stems[name].channels);
    const base = siSdr(truth[name], mixture);
    console.log(
      `  ${name.padEnd(7)} ${ours.toFixed(1).padStart(6)} ${base.toFixed(1).padStart(10)} ${anchors[name].padStart(22)}`,
    );
  }
}
