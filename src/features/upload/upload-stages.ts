/**
 * The server's processing stages, in order (upload contract §3): the upload's progress panel
 * and Your Uploads' status badges. A module of its own so that /library's badges do not load
 * the progress panel (and the upload calls it shares a chunk with).
 */
export const STAGES = [
  { id: 'checking', label: 'Checking the file' },
  { id: 'decoding', label: 'Decoding the audio' },
  { id: 'waveform', label: 'Drawing the waveform' },
  { id: 'loudness', label: 'Measuring loudness' },
  { id: 'encoding', label: 'Encoding the streaming versions' },
] as const;

export const stageLabel = (stage: string | null): string =>
  STAGES.find((s) => s.id === stage)?.label ?? 'Waiting for the processor';
