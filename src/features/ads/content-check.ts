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

export function isSubstantial(m: ContentMeasure): boolean {
  return (
    m.textLength > 200 ||
    (m.textLength > 100 && m.images > 0) ||
    (m.textLength > 50 && m.media > 0) ||
    m.blocks > 3
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
  const textLength = textLengthOf(root);
  if (textLength > 200) return true;
  if (textLength > 100 && within(root, IMAGES).length > 0) return true;
  if (textLength > 50 && within(root, MEDIA).length > 0) return true;
  let blocks = 0;
  for (const el of within(root, BLOCKS)) {
    if (textOf(el).length > 10 && ++blocks > 3) return true;
  }
  return false;
}

/** Still loading: the document, or a busy region / loader inside the page. */
export function isLoading(root: Element, doc: Document = document): boolean {
  return (
    doc.readyState !== 'complete' ||
    root.querySelector('[aria-busy="true"], .mantine-Loader-root, [data-loading="true"]') !== null
  );
}
