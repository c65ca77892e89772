import { useEffect, type RefObject } from 'react';

const reducedMotion = () =>
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * Spec 4: auto-follow centres the current line inside the lyrics panel (the panel scrolls, the
 * page does not). `container` must be the line's offset parent (position: relative).
 */
export function useAutoFollow(
  container: RefObject<HTMLElement | null>,
  activeIndex: number,
  enabled: boolean,
  /** Changes that move lines (expanding the panel) re-centre too. */
  layoutKey?: unknown,
): void {
  useEffect(() => {
    const box = container.current;
    if (!enabled || !box || activeIndex < 0) return;
    const line = box.querySelector<HTMLElement>(`[data-line-index="${activeIndex}"]`);
    if (!line) return;
    const top = line.offsetTop - box.clientHeight / 2 + line.offsetHeight / 2;
    const clamped = Math.max(0, Math.min(top, box.scrollHeight - box.clientHeight));
    // jsdom has no Element.scrollTo.
    box.scrollTo?.({ top: clamped, behavior: reducedMotion() ? 'auto' : 'smooth' });
  }, [container, activeIndex, enabled, layoutKey]);
}
