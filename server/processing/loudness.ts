/**
 * Integrated loudness (EBU R128 / ITU-R BS.1770-4, LUFS), measured by the ebur128 crate compiled
 * to WebAssembly (ebur128-wasm), and true peak (dBTP) by BS.1770-4 Annex 2 (true-peak.ts). The
 * crate's glue imports the .wasm file as an ES module, which Node runs only with
 * `--experimental-wasm-modules`: the processing workers start with that flag (worker-pool.ts), so
 * this module is imported in workers only.
 */
import type * as Ebur128Module from 'ebur128-wasm';
import { truePeakDb } from './true-peak';

type Ebur128 = typeof Ebur128Module;

export interface Loudness {
  /** Integrated loudness, LUFS; null for silence (below the absolute gate). */
  lufs: number | null;
  /** True peak, dBTP; null for digital silence. */
  truePeakDb: number | null;
}

let module: Promise<Ebur128> | null = null;
function load(): Promise<Ebur128> {
  module ??= import('ebur128-wasm/ebur128_wasm.js') as Promise<Ebur128>;
  return module;
}

const finite = (v: number) => (Number.isFinite(v) ? Math.round(v * 100) / 100 : null);

export async function measureLoudness(
  channelData: Float32Array[],
  sampleRate: number,
): Promise<Loudness> {
  const m = await load();
  const [left, right] = channelData;
  if (!left) return { lufs: null, truePeakDb: null };
  // ebur128 takes mono or stereo; more channels are folded into the first two.
  const lufs = right
    ? m.ebur128_integrated_stereo(sampleRate, left, right)
    : m.ebur128_integrated_mono(sampleRate, left);
  // True peak over every channel and every interpolated phase.
  const peak = truePeakDb(channelData);
  return { lufs: finite(lufs), truePeakDb: peak === null ? null : finite(peak) };
}
