import { SimpleGrid, TextInput } from '@mantine/core';
import type { DetailErrors, TrackDetails } from '../upload-rules';

export interface TrackDetailsFieldsProps {
  values: TrackDetails;
  errors: DetailErrors;
  disabled: boolean;
  onChange: (key: keyof TrackDetails, value: string) => void;
}

/** Spec 2 and 5: Title and Artist required, Album and Genre optional. */
export function TrackDetailsFields({
  values,
  errors,
  disabled,
  onChange,
}: TrackDetailsFieldsProps) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <TextInput
        label="Title"
        required
        value={values.title}
        error={errors.title}
        disabled={disabled}
        maxLength={200}
        onChange={(e) => onChange('title', e.currentTarget.value)}
      />
      <TextInput
        label="Artist"
        required
        value={values.artist}
        error={errors.artist}
        disabled={disabled}
        maxLength={200}
        onChange={(e) => onChange('artist', e.currentTarget.value)}
      />
      <TextInput
        label="Album"
        description="Optional: shown as 'Single' when empty."
        value={values.album}
        disabled={disabled}
        maxLength={200}
        onChange={(e) => onChange('album', e.currentTarget.value)}
      />
      <TextInput
        label="Genre"
        description="Optional."
        value={values.genre}
        disabled={disabled}
        maxLength={100}
        onChange={(e) => onChange('genre', e.currentTarget.value)}
      />
    </SimpleGrid>
  );
}
