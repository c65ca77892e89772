/** Test signals of the stems tests. */

/** Deterministic white noise in [−amplitude/2, amplitude/2) (xorshift), for reproducible mixtures. */
export function noise(length: number, amplitude: number, seed = 1): Float32Array {
  let s = seed >>> 0 || 1;
  const x = new Float32Array(length);
  for (let n = 0; n < length; n++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    x[n] = amplitude * ((s >>> 0) / 2 ** 32 - 0.5);
  }
  return x;
}
