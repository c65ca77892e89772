import { Button, Group, Stack, TextInput, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';

/** The playlists table's limits (supabase/migrations: name 1-100 chars, non-blank; description ≤ 1000). */
export const PLAYLIST_NAME_MAX = 100;
export const PLAYLIST_DESCRIPTION_MAX = 1000;
export const PLAYLIST_NAME_REQUIRED = 'Playlist name is required';

export interface PlaylistFormValues {
  name: string;
  description: string;
}

export interface PlaylistFormProps {
  initial?: PlaylistFormValues;
  submitLabel: string;
  onSubmit: (values: PlaylistFormValues) => Promise<void>;
  onCancel: () => void;
}

/** Playlist Name (required, non-blank after trim) and Description (optional). */
export function PlaylistForm({ initial, submitLabel, onSubmit, onCancel }: PlaylistFormProps) {
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(PLAYLIST_NAME_REQUIRED);
      return;
    }
    setSaving(true);
    try {
      await onSubmit({ name: name.trim(), description: description.trim() });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="md">
        <TextInput
          label="Playlist Name"
          placeholder="My road trip mix"
          required
          data-autofocus
          maxLength={PLAYLIST_NAME_MAX}
          value={name}
          error={error}
          onChange={(e) => {
            setName(e.currentTarget.value);
            if (error) setError(null);
          }}
        />
        <Textarea
          label="Description"
          placeholder="What's this playlist about? (optional)"
          autosize
          minRows={3}
          maxRows={6}
          maxLength={PLAYLIST_DESCRIPTION_MAX}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
