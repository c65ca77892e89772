import { PRODUCT_NAME } from './constants';

/** Document title for a route: 'FAQ · Soundloft'. */
export function pageTitle(title?: string): string {
  return title ? `${title} · ${PRODUCT_NAME}` : `${PRODUCT_NAME}: music that goes where you go`;
}

/** The `head` option of a TanStack route with the given title. */
export function titleHead(title?: string) {
  return () => ({ meta: [{ title: pageTitle(title) }] });
}
