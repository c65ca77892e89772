import { useCallback, useEffect, useRef, useState } from 'react';

export interface ServerRead<T> {
  data: T | undefined;
  error: Error | null;
  /** True until the first answer (later reloads keep showing the last data). */
  loading: boolean;
  reload(): Promise<void>;
}

/**
 * A read the mirror cannot answer (money, admin lists): runs `read` when `key` changes and on
 * reload(); a late answer of an older key is dropped.
 */
export function useServerRead<T>(read: () => Promise<T>, key: string | null): ServerRead<T> {
  const [state, setState] = useState<{ data?: T; error: Error | null; loading: boolean }>({
    error: null,
    loading: key !== null,
  });
  const readRef = useRef(read);
  readRef.current = read;
  const generation = useRef(0);
  const reload = useCallback(async () => {
    if (key === null) return;
    const mine = ++generation.current;
    try {
      const data = await readRef.current();
      if (mine === generation.current) setState({ data, error: null, loading: false });
    } catch (error) {
      if (mine === generation.current) {
        setState((s) => ({ ...s, error: error as Error, loading: false }));
      }
    }
  }, [key]);
  useEffect(() => {
    setState((s) => ({ ...s, loading: key !== null && s.data === undefined }));
    void reload();
  }, [reload, key]);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
