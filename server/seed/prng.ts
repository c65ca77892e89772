/**
 * A small seeded pseudo-random generator (mulberry32) and string hashing, so that every byte of
 * the demo catalogue is the same on every run and every machine.
 */

/** 32-bit FNV-1a hash of a string: turns names into seeds. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Prng {
  #state: number;

  constructor(seed: number | string) {
    this.#state = (typeof seed === 'string' ? hashString(seed) : seed) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A new generator whose sequence depends on this one's seed and `label` only. */
  fork(label: string): Prng {
    return new Prng((hashString(label) ^ Math.imul(this.#state, 0x9e3779b1)) >>> 0);
  }

  /** Noise in [-1, 1). */
  bipolar(): number {
    return this.next() * 2 - 1;
  }
}

/** The generator as a function returning [0, 1) numbers (benches: the same data on every run). */
export function random(seed: number): () => number {
  const prng = new Prng(seed);
  return () => prng.next();
}
