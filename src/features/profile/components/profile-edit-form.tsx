import {
  Alert,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { toast } from '@/components/toast';
import { getRepositories, type Playlist, type Profile, type Track } from '@/data';
import { uploadAvatar } from '@/data/repositories/profile-lookup';
import {
  AVATAR_UPLOAD_FAILED,
  avatarFileError,
  changedFields,
  checkForm,
  initialValues,
  SAVE_FAILED,
  SOCIAL_KEYS,
  SOCIAL_LABELS,
  type FormCheck,
  type ProfileFormValues,
} from '../profile-form';
import { AvatarPicker } from './avatar-picker';

export interface ProfileEditFormProps {
  profile: Profile;
  email: string | null;
  uploads: readonly Track[];
  playlists: readonly Playlist[];
  onClose: () => void;
}

/** Owner edit mode (spec 2, 5): Cancel restores the original values, Save sends only changes. */
export function ProfileEditForm({
  profile,
  email,
  uploads,
  playlists,
  onClose,
}: ProfileEditFormProps) {
  const [values, setValues] = useState<ProfileFormValues>(() => initialValues(profile));
  const [errors, setErrors] = useState<FormCheck['errors']>({});
  const [avatarFile, setAvatarFile] = useState<File | null>(null);
  const [avatarError, setAvatarError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const preview = useMemo(
    () => (avatarFile ? URL.createObjectURL(avatarFile) : null),
    [avatarFile],
  );
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const set = <K extends keyof ProfileFormValues>(key: K, value: ProfileFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  const pickAvatar = (file: File | null) => {
    if (!file) return;
    const error = avatarFileError(file);
    setAvatarError(error);
    setAvatarFile(error ? null : file);
  };

  const save = async () => {
    setFormError(null);
    const checked = checkForm(values);
    setErrors(checked.errors);
    if (Object.keys(checked.errors).length) return;
    const changes = changedFields(profile, checked.values);
    setSaving(true);
    try {
      if (avatarFile) {
        try {
          changes.avatar = await uploadAvatar(avatarFile);
        } catch (e) {
          console.error(AVATAR_UPLOAD_FAILED, e);
          setAvatarError(AVATAR_UPLOAD_FAILED);
          return;
        }
      }
      if (Object.keys(changes).length) await getRepositories().profile.update(changes);
      toast.success('Profile updated');
      onClose();
    } catch (e) {
      setFormError(e instanceof Error && e.message ? e.message : SAVE_FAILED);
    } finally {
      setSaving(false);
    }
  };

  const cancel = () => {
    setValues(initialValues(profile));
    setErrors({});
    setAvatarFile(null);
    setAvatarError(null);
    setFormError(null);
    onClose();
  };

  return (
    <Paper
      component="form"
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      bg="dark.7"
      aria-labelledby="edit-profile-heading"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      noValidate
    >
      <Stack gap="lg">
        <Title order={2} id="edit-profile-heading" fz="xl">
          Edit profile
        </Title>
        <AvatarPicker
          name={values.name || profile.name}
          src={preview ?? profile.avatar}
          error={avatarError}
          onPick={pickAvatar}
          disabled={saving}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="Display name"
            required
            value={values.name}
            onChange={(e) => set('name', e.currentTarget.value)}
            error={errors.name}
            maxLength={120}
            autoComplete="name"
          />
          <TextInput
            label="Email"
            value={email ?? ''}
            readOnly
            variant="filled"
            description="Email cannot be changed here."
          />
        </SimpleGrid>
        <Textarea
          label="Bio"
          value={values.bio}
          onChange={(e) => set('bio', e.currentTarget.value)}
          autosize
          minRows={3}
          maxRows={8}
          maxLength={2000}
          placeholder="Tell listeners about yourself"
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          {SOCIAL_KEYS.map((key) => (
            <TextInput
              key={key}
              label={SOCIAL_LABELS[key]}
              type="url"
              inputMode="url"
              placeholder={`https://${key === 'twitter' ? 'x.com' : key === 'spotify' ? 'open.spotify.com' : 'instagram.com'}/…`}
              value={values.links[key]}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setValues((v) => ({ ...v, links: { ...v.links, [key]: value } }));
              }}
              error={errors[key]}
            />
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Select
            label="Featured track"
            placeholder={uploads.length ? 'None' : 'Upload a track to feature it'}
            data={uploads.map((t) => ({ value: t.id, label: t.title }))}
            value={values.featuredTrack}
            onChange={(v) => set('featuredTrack', v)}
            clearable
            searchable
            nothingFoundMessage="No uploads found"
            disabled={!uploads.length && !values.featuredTrack}
          />
          <Select
            label="Featured playlist"
            placeholder={playlists.length ? 'None' : 'Create a playlist to feature it'}
            data={playlists.map((p) => ({ value: p.id, label: p.name }))}
            value={values.featuredPlaylist}
            onChange={(v) => set('featuredPlaylist', v)}
            clearable
            searchable
            nothingFoundMessage="No playlists found."
            disabled={!playlists.length && !values.featuredPlaylist}
          />
        </SimpleGrid>
        {formError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {formError}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" radius="xl" onClick={cancel} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" radius="xl" loading={saving}>
            Save changes
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
