import { describe, expect, it } from 'vitest';
import { STEM_NAMES, runningMedian, separate, type Stems } from './separate';
import { noise } from './test-signals';

const RATE = 44100;

function energy(channels: Float32Array[]): number {
  let e = 0;
  for (const ch of channels) for (const x of ch) e += x * x;
  return e;
}

function tone(seconds: number, hz: number, amplitude = 0.5): Float32Array {
  const x = new Float32Array(Math.round(seconds * RATE));
  for (let n = 0; n < x.length; n++) x[n] = amplitude * Math.sin((2 * Math.PI * hz * n) / RATE);
  return x;
}

function clicks(seconds: number, everySeconds: number): Float32Array {
  const x = new Float32Array(Math.round(seconds * RATE));
  for (let n = 0; n < x.length; n += Math.round(everySeconds * RATE)) x[n] = 0.9;
  return x;
}

function maxSumError(input: Float32Array[], stems: Stems): number {
  let worst = 0;
  input.forEach((x, c) => {
    for (let n = 0; n < x.length; n++) {
      let sum = 0;
      for (const name of STEM_NAMES) sum += (stems[name].channels[c] as Float32Array)[n] as number;
      worst = Math.max(worst, Math.abs(sum - (x[n] as number)));
    }
  });
  return worst;
}

describe('separate', { timeout: 120_000 }, () => {
  it('returns four stems of the input shape that sum back to the mixture', () => {
    const length = 3 * RATE;
    const left = tone(3, 220);
    const right = tone(3, 330);
    const c = clicks(3, 0.25);
    const hiss = noise(length, 0.05);
    for (let n = 0; n < length; n++) {
      left[n] = (left[n] as number) + (c[n] as number) + (hiss[n] as number);
      right[n] = (right[n] as number) + (c[n] as number) + (hiss[n] as number);
    }
    const input = [left, right];
    const stems = separate(input, RATE);
    for (const name of STEM_NAMES) {
      expect(stems[name].channels).toHaveLength(2);
      for (const ch of stems[name].channels) expect(ch).toHaveLength(length);
    }
    expect(maxSumError(input, stems)).toBeLessThan(1e-5);
    // No stem is the whole mixture, and together they carry its energy (masks are in [0, 1]).
    const total = energy(input);
    for (const name of STEM_NAMES) expect(energy(stems[name].channels)).toBeLessThan(total);
  });

  it('keeps a pure tone out of the drums', () => {
    const input = [tone(2, 440)];
    const stems = separate(input, RATE);
    expect(energy(stems.drums.channels) / energy(input)).toBeLessThan(0.01);
    expect(maxSumError(input, stems)).toBeLessThan(1e-5);
  });

  it('puts a low pure tone in the bass and a centred voice-band tone in the vocals', () => {
    const low = tone(2, 80);
    const mid = tone(2, 660);
    const bassStems = separate([low, low], RATE);
    expect(energy(bassStems.bass.channels) / energy([low, low])).toBeGreaterThan(0.9);
    const vocalStems = separate([mid, mid], RATE);
    expect(energy(vocalStems.vocals.channels) / energy([mid, mid])).toBeGreaterThan(0.9);
    // The same tone hard-panned to one side is not a centred voice.
    const silent = new Float32Array(mid.length);
    const panned = separate([mid, silent], RATE);
    expect(energy(panned.vocals.channels) / energy([mid, silent])).toBeLessThan(0.01);
  });

  it('gives the vocals what does not repeat (REPET), not an accompaniment that does', () => {
    // A chord pattern repeating every 1.5 s for 12 s, and a melody note that comes once.
    const length = 12 * RATE;
    const pattern = new Float32Array(length);
    const chord = [tone(12, 523, 0.2), tone(12, 659, 0.2)];
    for (let n = 0; n < length; n++) {
      if ((n / RATE) % 1.5 < 0.75) {
        pattern[n] = (chord[0]![n] as number) + (chord[1]![n] as number);
      }
    }
    const melody = new Float32Array(length);
    melody.set(tone(1, 880, 0.3), 5 * RATE);
    const mix = pattern.map((v, n) => v + (melody[n] as number));
    const alone = separate([pattern], RATE);
    expect(energy(alone.vocals.channels) / energy([pattern])).toBeLessThan(0.1);
    const stems = separate([mix], RATE);
    const vocals = stems.vocals.channels[0] as Float32Array;
    let dot = 0;
    for (let n = 0; n < length; n++) dot += (vocals[n] as number) * (melody[n] as number);
    // Most of the melody is in the vocals, and little else is.
    expect(dot / energy([melody])).toBeGreaterThan(0.7);
    expect(energy([vocals]) / energy([melody])).toBeLessThan(1.3);
    expect(maxSumError([mix], stems)).toBeLessThan(1e-5);
  });

  it('keeps a click train out of the bass and puts it in the drums', () => {
    const input = [clicks(2, 0.5)];
    const stems = separate(input, RATE);
    expect(energy(stems.bass.channels) / energy(input)).toBeLessThan(0.01);
    expect(energy(stems.drums.channels) / energy(input)).toBeGreaterThan(0.8);
  });

  it('gives silence for silence', () => {
    const input = [new Float32Array(RATE), new Float32Array(RATE)];
    const stems = separate(input, RATE);
    for (const name of STEM_NAMES) expect(energy(stems[name].channels)).toBe(0);
  });

  it('handles inputs shorter than one frame', () => {
    const input = [tone(0.01, 440)];
    const stems = separate(input, RATE);
    expect(maxSumError(input, stems)).toBeLessThan(1e-5);
  });

  it('reports progress up to 1', () => {
    const seen: number[] = [];
    separate([tone(1, 440)], RATE, { onProgress: (f) => seen.push(f) });
    expect(seen.at(-1)).toBe(1);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });
});

describe('runningMedian', () => {
  it('equals the median of each centred window, edges replicated', () => {
    const x = Float64Array.from(noise(300, 2, 9));
    x.fill(0.25, 100, 140); // ties
    for (const width of [1, 3, 17, 31]) {
      const out = new Float64Array(x.length);
      runningMedian(x, x.length, width, new Float64Array(width), out);
      const half = width >> 1;
      for (let i = 0; i < x.length; i++) {
        const window: number[] = [];
        for (let j = i - half; j <= i + half; j++) {
          window.push(x[Math.min(x.length - 1, Math.max(0, j))] as number);
        }
        window.sort((a, b) => a - b);
        expect(out[i]).toBe(window[half]);
      }
    }
  });
});
