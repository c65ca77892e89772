import { Badge, Loader } from '@mantine/core';
import type { Track } from '@/data';
import { stageLabel } from '../upload-stages';

/** What the server made of the upload: processing (with its stage), ready, or failed. */
export function statusText(track: Track): string {
  if (track.status === 'ready') return track.verified ? 'Ready' : 'Ready · Pending review';
  if (track.status === 'failed') return 'Failed';
  const percent =
    track.processingProgress !== null ? ` ${Math.round(track.processingProgress * 100)}%` : '';
  return `Processing · ${stageLabel(track.processingStage)}${percent}`;
}

export function UploadStatusBadge({ track }: { track: Track }) {
  const color = track.status === 'ready' ? 'green' : track.status === 'failed' ? 'red' : 'yellow';
  return (
    <Badge
      color={color}
      variant="light"
      radius="sm"
      tt="none"
      leftSection={track.status === 'processing' ? <Loader size={10} color="yellow" /> : null}
      data-testid="upload-status"
    >
      {statusText(track)}
    </Badge>
  );
}
