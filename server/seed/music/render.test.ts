import { describe, expect, it } from 'vitest';
import { TRUE_STEMS, renderSong } from './render';

describe('renderSong true stems', { timeout: 60_000 }, () => {
  // lofi: vinyl texture and tone; synthwave: sidechain ducking.
  it.each(['lofi', 'synthwave'] as const)(
    '%s: the stems sum to the mix, which asking for them leaves unchanged',
    (genre) => {
      const plain = renderSong(genre, 30, `stems-test/${genre}`, 22050);
      const withStems = renderSong(genre, 30, `stems-test/${genre}`, 22050, { stems: true });
      expect(plain.stems).toBeUndefined();
      // Bit for bit (compared as bytes: a deep equality of 700 000 floats is slow).
      expect(Buffer.from(withStems.samples.buffer).equals(Buffer.from(plain.samples.buffer))).toBe(
        true,
      );
      const stems = withStems.stems!;
      let worst = 0;
      let mixEnergy = 0;
      for (let i = 0; i < plain.samples.length; i++) {
        let sum = 0;
        for (const name of TRUE_STEMS) sum += stems[name][i] as number;
        worst = Math.max(worst, Math.abs(sum - (plain.samples[i] as number)));
        mixEnergy += (plain.samples[i] as number) ** 2;
      }
      expect(worst).toBeLessThan(1e-5);
      // Every stem carries a real share of the song.
      for (const name of TRUE_STEMS) {
        let e = 0;
        for (const v of stems[name]) e += v * v;
        expect(e / mixEnergy, name).toBeGreaterThan(0.005);
        expect(stems[name]).toHaveLength(plain.samples.length);
      }
    },
  );
});
