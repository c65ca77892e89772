/** Where a prerendered page lives in dist/: '/' → prerender/index.html, '/faq' → prerender/faq.html. */
export function prerenderFileFor(path: string): string {
  return `prerender${path === '/' ? '/index' : path}.html`;
}
