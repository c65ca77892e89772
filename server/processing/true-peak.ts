/**
 * True peak (dBTP) as ITU-R BS.1770-4 Annex 2 measures it: every channel oversampled 4× by the
 * Annex's 48-tap polyphase interpolating FIR (4 phases of 12 taps), the largest magnitude of
 * every phase of every channel. The sample peak counts too (the Annex's phase 0 is not exactly
 * the identity, so a sample could otherwise read a little above the meter).
 *
 * Pure arithmetic on Float32Arrays, so it runs in the processing workers and in unit tests alike.
 * (ebur128-wasm's true peak, used before, interpolates with libebur128's Hann-windowed 49-tap sinc,
 * which attenuates the top octave and read 0.2 dB low on the bench's WAV: docs/upload.md.)
 */

/** Annex 2, phase 0 (the sample instant) and phase 1 (a quarter period later). */
const PHASE_0 = [
  0.001708984375, 0.010986328125, -0.0196533203125, 0.033203125, -0.0594482421875, 0.1373291015625,
  0.97216796875, -0.102294921875, 0.047607421875, -0.026611328125, 0.014892578125, -0.00830078125,
];
const PHASE_1 = [
  -0.0291748046875, 0.029296875, -0.0517578125, 0.089111328125, -0.16650390625, 0.465087890625,
  0.77978515625, -0.2003173828125, 0.1015625, -0.0582275390625, 0.0330810546875, -0.0189208984375,
];
/** Phases 2 and 3 are phases 1 and 0 reversed (the filter is symmetric). */
const PHASES = [PHASE_0, PHASE_1, [...PHASE_1].reverse(), [...PHASE_0].reverse()].map((p) =>
  Float64Array.from(p),
);
const TAPS = 12;
/** No phase's output exceeds this many times the largest input in its 12-sample window. */
const GAIN_BOUND = Math.max(...PHASES.map((p) => p.reduce((sum, h) => sum + Math.abs(h), 0)));
/** Blocks whose window cannot beat the peak found so far are skipped (exactly: GAIN_BOUND). */
const BLOCK = 256;

function samplePeak(channels: readonly Float32Array[]): number {
  let peak = 0;
  for (const x of channels) {
    for (let i = 0; i < x.length; i++) {
      const a = Math.abs(x[i] as number);
      if (a > peak) peak = a;
    }
  }
  return peak;
}

/** The largest interpolated magnitude of one channel that beats `peak` (else `peak`). */
function oversampledPeak(x: Float32Array, peak: number): number {
  const n = x.length;
  const [p0, p1, p2, p3] = PHASES as [Float64Array, Float64Array, Float64Array, Float64Array];
  for (let start = 0; start < n; start += BLOCK) {
    const end = Math.min(n, start + BLOCK);
    let windowMax = 0;
    for (let j = Math.max(0, start - TAPS + 1); j < end; j++) {
      const a = Math.abs(x[j] as number);
      if (a > windowMax) windowMax = a;
    }
    if (windowMax * GAIN_BOUND <= peak) continue;
    for (let i = start; i < end; i++) {
      let y0 = 0;
      let y1 = 0;
      let y2 = 0;
      let y3 = 0;
      // Samples before the first are silence, as for a meter that starts with the file.
      const taps = Math.min(TAPS, i + 1);
      for (let k = 0; k < taps; k++) {
        const v = x[i - k] as number;
        y0 += (p0[k] as number) * v;
        y1 += (p1[k] as number) * v;
        y2 += (p2[k] as number) * v;
        y3 += (p3[k] as number) * v;
      }
      const m = Math.max(Math.abs(y0), Math.abs(y1), Math.abs(y2), Math.abs(y3));
      if (m > peak) peak = m;
    }
  }
  return peak;
}

/** The true peak, linear (1 = full scale); 0 for digital silence. */
export function truePeakLinear(channels: readonly Float32Array[]): number {
  let peak = samplePeak(channels);
  if (peak === 0) return 0;
  for (const x of channels) peak = oversampledPeak(x, peak);
  return peak;
}

/** The true peak in dBTP (relative to full scale); null for digital silence. */
export function truePeakDb(channels: readonly Float32Array[]): number | null {
  const peak = truePeakLinear(channels);
  return peak > 0 ? 20 * Math.log10(peak) : null;
}
