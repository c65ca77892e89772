/** Offline downloads (docs/offline.md): the manager, its app binding and hooks. */
export * from './app-downloads';
export { DownloadManager, type DownloadManagerDeps, type SignedFile } from './download-manager';
