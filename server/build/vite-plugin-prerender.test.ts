import { describe, expect, it } from 'vitest';
import { prerenderFileFor } from './prerender-paths';
import { injectPage } from './vite-plugin-prerender';

const template =
  '<html><head><title>Soundloft</title><link rel="stylesheet" href="/assets/a.css"></head><body><div id="root"></div></body></html>';

describe('prerender', () => {
  it('puts the markup into #root and the title into the head, escaped', () => {
    const page = injectPage(template, '<main><h1>FAQ</h1></main>', 'Q&A <FAQ> · Soundloft');
    expect(page).toContain('<div id="root"><main><h1>FAQ</h1></main></div>');
    expect(page).toContain('<title>Q&amp;A &lt;FAQ&gt; · Soundloft</title>');
    expect(page).toContain('/assets/a.css');
  });

  it('does not interpret $ patterns in the markup', () => {
    expect(injectPage(template, '<p>Price: $& $1</p>', 't')).toContain(
      '<p>Price: $&amp; $1</p>'.replace('&amp;', '&'),
    );
  });

  it('refuses a template without an empty #root', () => {
    expect(() => injectPage('<html></html>', '<p></p>', 't')).toThrow('no empty #root');
  });

  it('maps paths to files', () => {
    expect(prerenderFileFor('/')).toBe('prerender/index.html');
    expect(prerenderFileFor('/faq')).toBe('prerender/faq.html');
  });
});
