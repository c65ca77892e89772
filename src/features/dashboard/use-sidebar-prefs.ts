import { useCallback, useState } from 'react';

/** Spec 2 and 9: sidebar width 248 to 420 px, default 304; width and hidden flag kept locally. */
export const SIDEBAR_MIN = 248;
export const SIDEBAR_MAX = 420;
export const SIDEBAR_DEFAULT = 304;
export const SIDEBAR_STORAGE_KEY = 'soundloft-sidebar';

export interface SidebarPrefs {
  width: number;
  hidden: boolean;
}

export const clampSidebarWidth = (width: number): number =>
  Number.isFinite(width)
    ? Math.round(Math.min(SIDEBAR_MAX, Math.max(SIDEBAR_MIN, width)))
    : SIDEBAR_DEFAULT;

export function readSidebarPrefs(storage: Pick<Storage, 'getItem'> = localStorage): SidebarPrefs {
  try {
    const saved = JSON.parse(storage.getItem(SIDEBAR_STORAGE_KEY) ?? '{}') as Partial<SidebarPrefs>;
    return {
      width: clampSidebarWidth(Number(saved.width ?? SIDEBAR_DEFAULT)),
      hidden: saved.hidden === true,
    };
  } catch {
    return { width: SIDEBAR_DEFAULT, hidden: false };
  }
}

export function useSidebarPrefs() {
  const [prefs, setPrefs] = useState<SidebarPrefs>(() => readSidebarPrefs());
  const update = useCallback((change: Partial<SidebarPrefs>) => {
    setPrefs((current) => {
      const next = {
        width: clampSidebarWidth(change.width ?? current.width),
        hidden: change.hidden ?? current.hidden,
      };
      try {
        localStorage.setItem(SIDEBAR_STORAGE_KEY, JSON.stringify(next));
      } catch {
        // Private mode or a full disk: the preference just isn't kept.
      }
      return next;
    });
  }, []);
  return [prefs, update] as const;
}
