/**
 * The profile editor's rules (spec 5): display name required, links that are safe to render,
 * avatar png / jpeg / webp under 2 MB, and Save sending only the fields that changed.
 */
import type { Profile, SocialLinks } from '@/data';
import { FILE_LIMITS } from '@/lib/constants';

export const SOCIAL_KEYS = ['twitter', 'instagram', 'spotify'] as const;
export type SocialKey = (typeof SOCIAL_KEYS)[number];

export const SOCIAL_LABELS: Record<SocialKey, string> = {
  twitter: 'Twitter',
  instagram: 'Instagram',
  spotify: 'Spotify',
};

export interface ProfileFormValues {
  name: string;
  bio: string;
  links: Record<SocialKey, string>;
  featuredTrack: string | null;
  featuredPlaylist: string | null;
}

export type ProfileChanges = Partial<
  Pick<Profile, 'name' | 'bio' | 'socialLinks' | 'featuredTrack' | 'featuredPlaylist' | 'avatar'>
>;

export const NAME_REQUIRED = 'Display name is required';
export const INVALID_LINK = 'Enter a valid web address, e.g. https://example.com/you';
export const NOT_AN_IMAGE = 'Please select an image file.';
export const IMAGE_TOO_LARGE = 'Image must be less than 2MB.';
export const SAVE_FAILED = 'Failed to update profile. Please try again.';
export const AVATAR_UPLOAD_FAILED = 'Failed to upload new avatar.';

export function initialValues(profile: Profile): ProfileFormValues {
  return {
    name: profile.name,
    bio: profile.bio ?? '',
    links: {
      twitter: profile.socialLinks.twitter ?? '',
      instagram: profile.socialLinks.instagram ?? '',
      spotify: profile.socialLinks.spotify ?? '',
    },
    featuredTrack: profile.featuredTrack,
    featuredPlaylist: profile.featuredPlaylist,
  };
}

/** An http(s) URL to link to, or null (javascript:, data: and other schemes are never linked). */
export function safeHref(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** What is stored for a typed link: '' for none, 'https://' added when no scheme was typed. */
export function normaliseLink(value: string): { value: string; error: string | null } {
  const text = value.trim();
  if (!text) return { value: '', error: null };
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  const href = safeHref(withScheme);
  if (!href || !new URL(href).hostname.includes('.')) return { value: text, error: INVALID_LINK };
  return { value: href, error: null };
}

export interface FormCheck {
  errors: Partial<Record<'name' | SocialKey, string>>;
  /** The values as they would be saved (trimmed, links normalised). */
  values: ProfileFormValues;
}

export function checkForm(values: ProfileFormValues): FormCheck {
  const errors: FormCheck['errors'] = {};
  if (!values.name.trim()) errors.name = NAME_REQUIRED;
  const links = { ...values.links };
  for (const key of SOCIAL_KEYS) {
    const link = normaliseLink(values.links[key]);
    links[key] = link.value;
    if (link.error) errors[key] = link.error;
  }
  return { errors, values: { ...values, name: values.name.trim(), bio: values.bio.trim(), links } };
}

const storedLinks = (links: SocialLinks | Record<SocialKey, string>): SocialLinks => {
  const out: SocialLinks = {};
  for (const key of SOCIAL_KEYS) {
    const v = links[key]?.trim();
    if (v) out[key] = v;
  }
  return out;
};

const sameLinks = (a: SocialLinks, b: SocialLinks) =>
  SOCIAL_KEYS.every((k) => (a[k] ?? null) === (b[k] ?? null));

/** Only the fields whose saved value differs from the profile (spec: Save sends only changed fields). */
export function changedFields(profile: Profile, checked: ProfileFormValues): ProfileChanges {
  const changes: ProfileChanges = {};
  if (checked.name !== profile.name) changes.name = checked.name;
  if ((checked.bio || null) !== (profile.bio?.trim() || null)) changes.bio = checked.bio || null;
  const links = storedLinks(checked.links);
  if (!sameLinks(links, storedLinks(profile.socialLinks))) changes.socialLinks = links;
  if (checked.featuredTrack !== profile.featuredTrack)
    changes.featuredTrack = checked.featuredTrack;
  if (checked.featuredPlaylist !== profile.featuredPlaylist) {
    changes.featuredPlaylist = checked.featuredPlaylist;
  }
  return changes;
}

/** Spec 5: image only (png, jpeg, webp), under 2 MB. */
export function avatarFileError(file: { type: string; size: number }): string | null {
  if (!(FILE_LIMITS.imageMimeTypes as readonly string[]).includes(file.type)) return NOT_AN_IMAGE;
  if (file.size >= FILE_LIMITS.avatarMaxMb * 1024 * 1024) return IMAGE_TOO_LARGE;
  return null;
}

/** 'Member since March 2026'. */
export function memberSince(createdAt: string): string | null {
  const d = new Date(createdAt);
  if (Number.isNaN(d.getTime())) return null;
  return `Member since ${d.toLocaleDateString('en-US', { month: 'long', year: 'numeric' })}`;
}
