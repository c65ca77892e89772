import { useLayoutEffect, useState, type RefObject } from 'react';

/** Whether the element's content is taller than `limit` px (kept current as it resizes). */
export function useOverflow(ref: RefObject<HTMLElement | null>, limit: number): boolean {
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setOverflows(element.scrollHeight > limit + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, limit]);
  return overflows;
}
