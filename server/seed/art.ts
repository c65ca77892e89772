/**
 * Generated artwork: a cover per album or single (512×512, a motif per genre) and an avatar per
 * artist (256×256), each with initials. Smooth shapes and gradients keep the PNGs small.
 */
import type { GenreId } from './music/genres';
import { PNG } from 'pngjs';
import { glyphPixel, initials } from './font';
import { Prng } from './prng';

type Rgb = [number, number, number];

function hsl(h: number, s: number, l: number): Rgb {
  const hue = (((h % 360) + 360) % 360) / 360;
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const f = (t0: number) => {
    const t = t0 < 0 ? t0 + 1 : t0 > 1 ? t0 - 1 : t0;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  return [f(hue + 1 / 3) * 255, f(hue) * 255, f(hue - 1 / 3) * 255];
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];
const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);
/** Anti-aliased coverage of a shape edge at signed distance `d` pixels (inside < 0). */
const cover = (d: number) => clamp01(0.5 - d);

class Canvas {
  readonly data: Float32Array;
  constructor(
    readonly size: number,
    paint: (u: number, v: number) => Rgb,
  ) {
    this.data = new Float32Array(size * size * 3);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const c = paint((x + 0.5) / size, (y + 0.5) / size);
        const i = (y * size + x) * 3;
        this.data[i] = c[0];
        this.data[i + 1] = c[1];
        this.data[i + 2] = c[2];
      }
    }
  }

  blend(x: number, y: number, c: Rgb, alpha: number): void {
    if (alpha <= 0 || x < 0 || y < 0 || x >= this.size || y >= this.size) return;
    const i = (y * this.size + x) * 3;
    for (let k = 0; k < 3; k++) {
      const old = this.data[i + k] as number;
      this.data[i + k] = old + ((c[k] as number) - old) * alpha;
    }
  }

  text(str: string, x0: number, y0: number, scale: number, color: Rgb, shadow: Rgb): void {
    for (const [dx, c, a] of [
      [Math.max(2, scale / 4), shadow, 0.45],
      [0, color, 1],
    ] as const) {
      [...str].forEach((ch, n) => {
        for (let row = 0; row < 7; row++) {
          for (let col = 0; col < 5; col++) {
            if (!glyphPixel(ch, col, row)) continue;
            const px = Math.round(x0 + dx + (n * 6 + col) * scale);
            const py = Math.round(y0 + dx + row * scale);
            for (let yy = 0; yy < scale; yy++)
              for (let xx = 0; xx < scale; xx++) this.blend(px + xx, py + yy, c, a);
          }
        }
      });
    }
  }

  png(): Uint8Array {
    const rgb = new Uint8Array(this.data.length);
    for (let i = 0; i < rgb.length; i++)
      rgb[i] = Math.round(clamp01((this.data[i] as number) / 255) * 255);
    // pngjs: 8-bit RGB, its adaptive per-row filter, zlib level 9 (small files for the seed).
    const png = PNG.sync.write(
      { width: this.size, height: this.size, data: Buffer.from(rgb.buffer) } as PNG,
      {
        colorType: 2,
        inputColorType: 2,
        inputHasAlpha: false,
        deflateLevel: 9,
        deflateStrategy: 0,
      },
    );
    return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
  }
}

const BASE_HUE: Record<GenreId, number> = {
  synthwave: 285,
  lofi: 25,
  ambient: 200,
  house: 330,
  folk: 95,
  dnb: 170,
  chiptune: 130,
};

function coverPainter(genre: GenreId, rng: Prng, size: number): (u: number, v: number) => Rgb {
  const hue = BASE_HUE[genre] + rng.range(-25, 25);
  const px = 1 / size;
  switch (genre) {
    case 'synthwave': {
      const sky: Rgb[] = [hsl(hue - 40, 0.6, 0.1), hsl(hue, 0.7, 0.35), hsl(hue + 45, 0.9, 0.6)];
      const sunTop = hsl(50, 1, 0.65);
      const sunBottom = hsl(hue + 40, 1, 0.55);
      const horizon = 0.64;
      const ground = hsl(hue - 30, 0.6, 0.08);
      const line = hsl(hue + 30, 1, 0.6);
      return (u, v) => {
        if (v > horizon) {
          const depth = (v - horizon) / (1 - horizon);
          const z = 1 / (depth + 0.06);
          const gridH = Math.abs(((z * 0.9) % 1) - 0.5) < 0.04 * z * 0.2 + 0.02 ? 1 : 0;
          const gridV =
            Math.abs((((u - 0.5) * z * 2.2) % 0.25) / 0.25) < 0.04 + depth * 0.05 ? 1 : 0;
          return mix(ground, line, Math.max(gridH, gridV) * 0.85 * clamp01(depth * 5));
        }
        const d = Math.hypot(u - 0.5, v - 0.5) - 0.26;
        let c =
          v < 0.4
            ? mix(sky[0] as Rgb, sky[1] as Rgb, v / 0.4)
            : mix(sky[1] as Rgb, sky[2] as Rgb, (v - 0.4) / 0.24);
        const gap = v > 0.5 && ((v - 0.5) * 60) % 2.4 < (v - 0.5) * 14;
        if (!gap) c = mix(c, mix(sunTop, sunBottom, clamp01((v - 0.24) / 0.4)), cover(d / px));
        return c;
      };
    }
    case 'lofi': {
      const wall = hsl(hue, 0.35, 0.55);
      const glass = hsl(hue + 180, 0.35, 0.3);
      const lamp = hsl(hue + 15, 0.9, 0.75);
      const [wallLow, glassLow] = [hsl(hue - 10, 0.4, 0.35), hsl(hue + 200, 0.3, 0.45)];
      return (u, v) => {
        let c = mix(wall, wallLow, v);
        const inWindow = u > 0.18 && u < 0.82 && v > 0.14 && v < 0.7;
        if (inWindow) {
          c = mix(glass, glassLow, v);
          const streak =
            Math.abs(((u * 37 + v * 3) % 1) - 0.5) < 0.03 && (v * 7 + u * 13) % 1 < 0.55;
          if (streak) c = mix(c, [235, 240, 255], 0.35);
          if (Math.abs(u - 0.5) < 0.008) c = wall;
        }
        const glow = Math.exp(-(((u - 0.72) ** 2 + (v - 0.82) ** 2) / 0.01));
        return mix(c, lamp, glow * 0.8);
      };
    }
    case 'ambient': {
      const ridges = [0, 1, 2].map((i) => ({
        a: rng.range(0.03, 0.08),
        f: rng.range(4, 9),
        p: rng.range(0, 6),
        c: hsl(hue - i * 8, 0.35, 0.55 - i * 0.14),
      }));
      const top = hsl(hue + 20, 0.5, 0.88);
      const bottom = hsl(hue, 0.45, 0.62);
      return (u, v) => {
        let c = mix(top, bottom, v);
        ridges.forEach((r, i) => {
          const h =
            0.45 + i * 0.15 + r.a * Math.sin(u * r.f + r.p) + r.a * 0.4 * Math.sin(u * r.f * 2.7);
          c = mix(c, r.c, cover((h - v) / px));
        });
        return c;
      };
    }
    case 'house': {
      const label = hsl(hue + 180, 0.8, 0.55);
      const [bgA, bgB] = [hsl(hue, 0.7, 0.45), hsl(hue + 30, 0.8, 0.25)];
      return (u, v) => {
        const r = Math.hypot(u - 0.5, v - 0.5);
        let c = mix(bgA, bgB, u * 0.5 + v * 0.5);
        const groove = 0.08 + 0.04 * Math.sin(r * 420);
        c = mix(c, [groove * 255, groove * 255, groove * 255], cover((r - 0.42) / px));
        c = mix(c, label, cover((r - 0.13) / px));
        return mix(c, [20, 20, 20], cover((r - 0.012) / px));
      };
    }
    case 'folk': {
      const hills = [0, 1, 2].map((i) => ({
        h: 0.55 + i * 0.13,
        f: rng.range(3, 6),
        p: rng.range(0, 6),
        c: hsl(hue - i * 20, 0.45, 0.42 - i * 0.1),
      }));
      const [top, bottom, sun] = [hsl(45, 0.8, 0.8), hsl(hue - 60, 0.7, 0.65), hsl(40, 1, 0.7)];
      return (u, v) => {
        let c = mix(top, bottom, v);
        c = mix(c, sun, cover((Math.hypot(u - 0.7, v - 0.3) - 0.12) / px));
        hills.forEach((hill) => {
          const h = hill.h + 0.04 * Math.sin(u * hill.f + hill.p);
          c = mix(c, hill.c, cover((h - v) / px));
        });
        return c;
      };
    }
    case 'dnb': {
      const accent = hsl(hue, 1, 0.55);
      const [bgA, bgB] = [hsl(hue + 40, 0.5, 0.08), hsl(hue + 20, 0.5, 0.18)];
      return (u, v) => {
        const band = ((u + v) * 5) % 1;
        let c = mix(bgA, bgB, v);
        if (band < 0.12) c = mix(c, accent, 0.9 - Math.abs(u - 0.5));
        return c;
      };
    }
    case 'chiptune': {
      const cells = 16;
      const grid = Array.from({ length: cells * cells }, () => rng.int(0, 3));
      const palette = [
        hsl(hue, 0.6, 0.2),
        hsl(hue, 0.7, 0.4),
        hsl(hue + 60, 0.8, 0.55),
        hsl(hue + 180, 0.8, 0.6),
      ];
      return (u, v) =>
        palette[grid[Math.floor(v * cells) * cells + Math.floor(u * cells)] ?? 0] as Rgb;
    }
  }
}

/** The cover of one release: genre motif and the title's initials. */
export function renderCover(title: string, genre: GenreId, seed: string, size = 512): Uint8Array {
  const rng = new Prng(seed);
  const canvas = new Canvas(size, coverPainter(genre, rng, size));
  const scale = Math.round(size / 40);
  canvas.text(initials(title), size * 0.07, size * 0.07, scale, [255, 255, 255], [0, 0, 0]);
  return canvas.png();
}

/** An artist avatar: a two-tone disc and the name's initials, centred. */
export function renderAvatar(name: string, seed: string, size = 256): Uint8Array {
  const rng = new Prng(seed);
  const hue = rng.range(0, 360);
  const a = hsl(hue, 0.65, 0.55);
  const b = hsl(hue + rng.range(40, 120), 0.7, 0.35);
  const ring = hsl(hue + 180, 0.5, 0.85);
  const px = 1 / size;
  const canvas = new Canvas(size, (u, v) => {
    const r = Math.hypot(u - 0.5, v - 0.5);
    const c = mix(a, b, clamp01(u * 0.6 + v * 0.6 - 0.1));
    return mix(c, ring, cover((Math.abs(r - 0.44) - 0.012) / px) * 0.8);
  });
  const text = initials(name);
  const scale = Math.round(size / 18);
  const width = (text.length * 6 - 1) * scale;
  canvas.text(text, (size - width) / 2, (size - 7 * scale) / 2, scale, [255, 255, 255], [0, 0, 0]);
  return canvas.png();
}
