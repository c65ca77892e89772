import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useState } from 'react';
import { toast } from '@/components/toast';
import { type Track } from '@/data';
import { editTrack } from '@/data/repositories/track-uploads';
import { CoverPicker } from '../components/cover-picker';
import { TrackDetailsFields } from '../components/track-details-fields';
import { checkDetails, cleanDetails, coverFileError, type TrackDetails } from '../upload-rules';

export interface EditTrackModalProps {
  track: Track | null;
  userId: string;
  onClose: () => void;
}

/** Your Uploads: change title, artist, album, genre and cover (spec 5's rules again). */
export function EditTrackModal({ track, userId, onClose }: EditTrackModalProps) {
  return (
    <Modal
      opened={Boolean(track)}
      onClose={onClose}
      title="Edit track"
      centered
      radius="md"
      size="lg"
    >
      {track && <EditTrackForm key={track.id} track={track} userId={userId} onClose={onClose} />}
    </Modal>
  );
}

function EditTrackForm({
  track,
  userId,
  onClose,
}: {
  track: Track;
  userId: string;
  onClose: () => void;
}) {
  const [values, setValues] = useState<TrackDetails>({
    title: track.title,
    artist: track.artist,
    album: track.album ?? '',
    genre: track.genre ?? '',
  });
  const [cover, setCover] = useState<File | null>(null);
  const [removeCover, setRemoveCover] = useState(false);
  const [coverError, setCoverError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const errors = checkDetails(values);

  const save = async () => {
    if (errors.title || errors.artist) return;
    setSaving(true);
    setError(null);
    try {
      await editTrack(
        track.id,
        userId,
        cleanDetails(values),
        cover ?? (removeCover ? 'remove' : null),
      );
      toast.success('Track updated');
      onClose();
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : 'Failed to save track information');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="md">
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <TrackDetailsFields
        values={values}
        errors={errors}
        disabled={saving}
        onChange={(key, value) => setValues((v) => ({ ...v, [key]: value }))}
      />
      <CoverPicker
        cover={cover}
        currentUrl={removeCover ? null : track.coverImage}
        fromTags={false}
        error={coverError}
        disabled={saving}
        onPick={(file) => {
          const problem = coverFileError(file);
          setCoverError(problem);
          if (!problem) {
            setCover(file);
            setRemoveCover(false);
          }
        }}
        onRemove={() => {
          setCover(null);
          setRemoveCover(true);
        }}
      />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={saving}>
          Cancel
        </Button>
        <Button
          onClick={() => void save()}
          loading={saving}
          disabled={Boolean(errors.title || errors.artist)}
        >
          Save
        </Button>
      </Group>
    </Stack>
  );
}
