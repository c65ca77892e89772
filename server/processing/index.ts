export { startTrackProcessing, type TrackProcessing, type TrackProcessingOptions } from './jobs';
export { ProcessingPool } from './worker-pool';
export { UNREADABLE_AUDIO } from './inspect';
