import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';

// Files that need no browser say `// @vitest-environment node` and skip jsdom, which costs
// about two seconds a file to load (docs/architecture.md, "Test time").
if (typeof window !== 'undefined') {
  const { cleanup, configure } = await import('@testing-library/react');
  afterEach(() => cleanup());
  // findBy*/waitFor give up after 1 s by default: a lazy chunk (the queue panel, now playing)
  // took longer on a loaded machine (CI, once). The bound only decides when a failing test
  // stops waiting; a passing one returns as soon as the element is there.
  configure({ asyncUtilTimeout: 10_000 });

  // jsdom lacks matchMedia and ResizeObserver, which Mantine uses.
  if (!window.matchMedia) {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList;
  }
  if (!('ResizeObserver' in window)) {
    (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  }
}
