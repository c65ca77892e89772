/** src/data/db: the only module that imports Dexie (CONVENTIONS habit 2). */
export * from './models';
export * from './mapping';
export { SoundloftDb, DB_NAME, type MirrorTable } from './schema';
export {
  getDb,
  createDb,
  dbHealthStore,
  isQuotaError,
  reportQuota,
  clearQuotaFlag,
  type DbHealth,
} from './open';
export { observe } from './observe';
export { isMirrorFilled, markMirrorFilled } from './mirror-filled';
export { deleteExisting, putChanged, type MirrorStore } from './write-changed';
