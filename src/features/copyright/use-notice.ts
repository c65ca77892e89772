import { useCallback, useEffect, useState } from 'react';
import { loadNotice, type NoticeDetail } from './copyright-remote';

/** A notice read with the caller's rights: loading, missing (or not theirs), error, or loaded. */
export function useNotice(noticeId: string) {
  const [state, setState] = useState<
    | { kind: 'loading' }
    | { kind: 'missing' }
    | { kind: 'error'; message: string }
    | { kind: 'loaded'; detail: NoticeDetail }
  >({ kind: 'loading' });
  const reload = useCallback(() => {
    loadNotice(noticeId).then(
      (detail) => setState(detail ? { kind: 'loaded', detail } : { kind: 'missing' }),
      (e: unknown) =>
        setState({ kind: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
  }, [noticeId]);
  useEffect(reload, [reload]);
  return { state, reload };
}
