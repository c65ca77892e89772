export { createSyncEngine, type EngineOptions, type SyncEngine } from './engine';
export { syncLabel, type SyncLabel, type SyncStatus, type StatusStore } from './status-store';
export { classify, backoffDelay, RemoteError, type ErrorClass, type RemoteFailure } from './errors';
export { REJECTION_MESSAGES } from './messages';
export { notifyWrite } from './leader';
export type { SyncRemote, MutationResult, WireMutation } from './types';
export {
  startSync,
  stopSync,
  currentEngine,
  onSyncRejection,
  beforeSignOut,
  retrySync,
  dismissSyncFailures,
  useSyncStatus,
  useSyncStatusSelector,
  useDbHealth,
  bindSyncToAuth,
  fetchOnDemand,
} from './app-sync';
export { bindRealtime, watchListens } from './realtime-sync';
