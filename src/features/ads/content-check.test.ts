import { describe, expect, it } from 'vitest';
import { scrolledPastHalf, recheckDelay } from './ad-rules';
import { isSubstantial, isSubstantialContent, measureContent } from './content-check';

const main = (html: string) => {
  const el = document.createElement('main');
  el.innerHTML = html;
  return el;
};
const words = (n: number) => 'x'.repeat(n);

describe('substantial content (spec 9)', () => {
  it('text over 200 characters', () => {
    expect(isSubstantial(measureContent(main(`<div>${words(201)}</div>`)))).toBe(true);
    expect(isSubstantial(measureContent(main(`<div>${words(200)}</div>`)))).toBe(false);
  });
  it('over 100 with images, over 50 with media', () => {
    expect(isSubstantial(measureContent(main(`<div>${words(101)}</div><img alt="">`)))).toBe(true);
    expect(isSubstantial(measureContent(main(`<div>${words(100)}</div><img alt="">`)))).toBe(false);
    expect(isSubstantial(measureContent(main(`<div>${words(51)}</div><audio></audio>`)))).toBe(
      true,
    );
    expect(isSubstantial(measureContent(main(`<div>${words(50)}</div><video></video>`)))).toBe(
      false,
    );
  });
  it('more than 3 blocks over 10 characters', () => {
    const blocks = (n: number) => Array.from({ length: n }, () => `<p>${words(11)}</p>`).join('');
    expect(isSubstantial({ ...measureContent(main(blocks(4))), textLength: 0 })).toBe(true);
    expect(isSubstantial(measureContent(main(blocks(3))))).toBe(false);
  });
  it('leaves the ads themselves out', () => {
    const m = measureContent(
      main(`<aside data-house-ad="banner"><p>${words(300)}</p><img alt=""></aside>`),
    );
    expect(m).toEqual({ textLength: 0, images: 0, media: 0, blocks: 0 });
  });
  it('the short-cut check answers as the full measure does', () => {
    const blocks = (n: number) => Array.from({ length: n }, () => `<p>${words(11)}</p>`).join('');
    const pages = [
      `<div>${words(201)}</div>`,
      `<div>${words(200)}</div>`,
      `<div>${words(101)}</div><img alt="">`,
      `<div>${words(100)}</div><img alt="">`,
      `<div>${words(51)}</div><audio></audio>`,
      `<div>${words(50)}</div><video></video>`,
      `<div>${words(60)}</div><aside data-house-ad="banner"><video></video></aside>`,
      blocks(4),
      blocks(3),
      `<ul><li>${words(5)}</li><li>${words(5)}</li></ul>${blocks(3)}`,
      `<aside data-house-ad="banner"><p>${words(300)}</p><img alt=""></aside>`,
    ];
    for (const html of pages) {
      const root = main(html);
      expect(isSubstantialContent(root), html).toBe(isSubstantial(measureContent(root)));
    }
  });
  it('scroll past half, and the recheck delays', () => {
    expect(scrolledPastHalf({ scrollTop: 501, scrollHeight: 2000, clientHeight: 1000 })).toBe(true);
    expect(scrolledPastHalf({ scrollTop: 500, scrollHeight: 2000, clientHeight: 1000 })).toBe(
      false,
    );
    expect(scrolledPastHalf({ scrollTop: 0, scrollHeight: 500, clientHeight: 1000 })).toBe(false);
    expect([recheckDelay(true), recheckDelay(false)]).toEqual([2000, 5000]);
  });
});
