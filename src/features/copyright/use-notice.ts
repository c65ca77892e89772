import { useCallback, useEffect, useState } from 'react';
import { loadNotice, loadNoticeByLink, type NoticeDetail } from './copyright-remote';

/**
 * A notice read with the caller's rights (or, with `token`, the e-mailed link's): loading,
 * missing (or not theirs), error, or loaded.
 */
export function useNotice(noticeId: string, token?: string) {
  const [state, setState] = useState<
    | { kind: 'loading' }
    | { kind: 'missing' }
    | { kind: 'error'; message: string }
    | { kind: 'loaded'; detail: NoticeDetail }
  >({ kind: 'loading' });
  const reload = useCallback(() => {
    (token ? loadNoticeByLink(token) : loadNotice(noticeId)).then(
      (detail) => setState(detail ? { kind: 'loaded', detail } : { kind: 'missing' }),
      (e: unknown) =>
        setState({ kind: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
  }, [noticeId, token]);
  useEffect(reload, [reload]);
  return { state, reload };
}
