/**
 * Spec 9: ads show only when the page's content is substantial: text over 200 characters, or
 * over 100 with images, or over 50 with media, or more than 3 blocks over 10 characters.
 * Measured on the page's main element, ads themselves (`[data-house-ad]`) left out.
 */
export interface ContentMeasure {
  textLength: number;
  images: number;
  media: number;
  /** Blocks (paragraphs, headings, list items, …) with more than 10 characters of text. */
  blocks: number;
}

const BLOCKS_OVER = 3;

/**
 * The spec's rule, once, over parts computed on demand: `blocks(limit)` may stop counting at
 * `limit` (isSubstantialContent measures only as far as the answer needs).
 */
function substantial(
  textLength: number,
  images: () => number,
  media: () => number,
  blocks: (limit: number) => number,
): boolean {
  return (
    textLength > 200 ||
    (textLength > 100 && images() > 0) ||
    (textLength > 50 && media() > 0) ||
    blocks(BLOCKS_OVER + 1) > BLOCKS_OVER
  );
}

export function isSubstantial(m: ContentMeasure): boolean {
  return substantial(
    m.textLength,
    () => m.images,
    () => m.media,
    () => m.blocks,
  );
}

const AD = '[data-house-ad]';
const BLOCKS = 'p, h1, h2, h3, h4, h5, h6, li, blockquote, article, td, figcaption';

const textOf = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();
const outsideAds = (el: Element) => !el.closest(AD);

function textLengthOf(root: Element): number {
  let textLength = 0;
  for (const node of root.childNodes) {
    if (node instanceof Element && node.matches(AD)) continue;
    textLength += (node.textContent ?? '').replace(/\s+/g, ' ').trim().length;
  }
  return textLength;
}

const within = (root: Element, selector: string) =>
  [...root.querySelectorAll(selector)].filter(outsideAds);
const IMAGES = 'img, svg[role="img"], picture';
const MEDIA = 'audio, video, iframe';

export function measureContent(root: Element): ContentMeasure {
  return {
    textLength: textLengthOf(root),
    images: within(root, IMAGES).length,
    media: within(root, MEDIA).length,
    blocks: within(root, BLOCKS).filter((el) => textOf(el).length > 10).length,
  };
}

/**
 * `isSubstantial(measureContent(root))`, measuring only as far as the answer needs: the check
 * runs every second, and on a page with a long track list counting every block (the text of
 * each cell) took tens of milliseconds of main thread on a phone (docs/architecture.md).
 */
export function isSubstantialContent(root: Element): boolean {
  return substantial(
    textLengthOf(root),
    () => within(root, IMAGES).length,
    () => within(root, MEDIA).length,
    (limit) => {
      let blocks = 0;
      for (const el of within(root, BLOCKS)) {
        if (textOf(el).length > 10 && ++blocks >= limit) break;
      }
      return blocks;
    },
  );
}

/** Still loading: the document, or a busy region / loader inside the page. */
export function isLoading(root: Element, doc: Document = document): boolean {
  return (
    doc.readyState !== 'complete' ||
    root.querySelector('[aria-busy="true"], .mantine-Loader-root, [data-loading="true"]') !== null
  );
}
