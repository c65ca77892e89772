import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { rowIndexAt } from './reorder';

/** The click that follows a drag's release must not open the row under the pointer. */
function swallowNextClick() {
  const swallow = (e: MouseEvent) => {
    e.stopPropagation();
    e.preventDefault();
  };
  window.addEventListener('click', swallow, { capture: true, once: true });
  setTimeout(() => window.removeEventListener('click', swallow, { capture: true }), 0);
}

export interface DragState {
  from: number;
  over: number;
}

/**
 * Pointer drag of table rows by a handle inside them: the row under the pointer (in display
 * order) is where the dragged row goes. Listens on window, so the handle's row may move in the
 * DOM while the preview reorders. `onDrop(from, to)` runs once on release when the row moved.
 */
export function useDragReorder(onDrop: (from: number, to: number) => void) {
  const [drag, setDrag] = useState<DragState | null>(null);
  const dragRef = useRef<DragState | null>(null);
  const bodyRef = useRef<HTMLTableSectionElement | null>(null);
  const onDropRef = useRef(onDrop);
  useEffect(() => {
    onDropRef.current = onDrop;
  }, [onDrop]);

  const update = (next: DragState | null) => {
    dragRef.current = next;
    setDrag(next);
  };

  useEffect(() => {
    if (!drag) return;
    const move = (e: PointerEvent) => {
      const current = dragRef.current;
      const body = bodyRef.current;
      if (!current || !body) return;
      const rows = [...body.rows].map((r) => r.getBoundingClientRect());
      const over = rowIndexAt(e.clientY, rows);
      if (over !== current.over) update({ ...current, over });
    };
    const end = (e: PointerEvent) => {
      const current = dragRef.current;
      update(null);
      if (!current || e.type !== 'pointerup') return;
      swallowNextClick();
      if (current.from !== current.over) onDropRef.current(current.from, current.over);
    };
    const previousCursor = document.body.style.cursor;
    document.body.style.cursor = 'grabbing';
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
    return () => {
      document.body.style.cursor = previousCursor;
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
    };
  }, [drag]);

  const start = useCallback((event: ReactPointerEvent<HTMLElement>, index: number) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    bodyRef.current = event.currentTarget.closest('tbody');
    update({ from: index, over: index });
  }, []);

  return { drag, start };
}
