export { createRestApp } from './app';
export type { RestApp, RestAppOptions } from './app';
export { startRestServer } from './serve';
export type { RunningRestServer } from './serve';
export { quoteIdent } from './ident';
