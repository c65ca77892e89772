// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Profile } from '@/data';
import {
  avatarFileError,
  changedFields,
  checkForm,
  IMAGE_TOO_LARGE,
  initialValues,
  INVALID_LINK,
  memberSince,
  NAME_REQUIRED,
  normaliseLink,
  NOT_AN_IMAGE,
  safeHref,
} from './profile-form';

const profile = (overrides: Partial<Profile> = {}): Profile => ({
  id: 'u1',
  name: 'Ada',
  avatar: null,
  bio: null,
  socialLinks: {},
  featuredTrack: null,
  featuredPlaylist: null,
  subscriptionPlan: 'free',
  monthlyUploads: 0,
  monthlyUploadsMonth: '2026-03-01',
  followers: 0,
  createdAt: '2026-03-14T10:00:00.000Z',
  updatedAt: '2026-03-14T10:00:00.000Z',
  ...overrides,
});

describe('profile form', () => {
  it('sends nothing when nothing changed', () => {
    const p = profile({ bio: 'Hi', socialLinks: { twitter: 'https://x.com/ada', spotify: null } });
    expect(changedFields(p, checkForm(initialValues(p)).values)).toEqual({});
  });

  it('sends only the changed fields (trimmed)', () => {
    const p = profile();
    const values = { ...initialValues(p), bio: '  Composer  ' };
    expect(changedFields(p, checkForm(values).values)).toEqual({ bio: 'Composer' });
    const renamed = { ...initialValues(p), name: ' Ada L ' };
    expect(changedFields(p, checkForm(renamed).values)).toEqual({ name: 'Ada L' });
  });

  it('sends the links object when one link changed, without empty keys', () => {
    const p = profile({ socialLinks: { twitter: 'https://x.com/ada' } });
    const values = initialValues(p);
    values.links.instagram = 'instagram.com/ada';
    expect(changedFields(p, checkForm(values).values)).toEqual({
      socialLinks: { twitter: 'https://x.com/ada', instagram: 'https://instagram.com/ada' },
    });
  });

  it('requires a display name and valid links', () => {
    const values = { ...initialValues(profile()), name: '   ' };
    values.links.spotify = 'javascript:alert(1)';
    values.links.twitter = 'not a link';
    const { errors } = checkForm(values);
    expect(errors).toEqual({ name: NAME_REQUIRED, spotify: INVALID_LINK, twitter: INVALID_LINK });
  });

  it('links only http(s) addresses', () => {
    expect(safeHref('https://open.spotify.com/artist/1')).toBe('https://open.spotify.com/artist/1');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,hi')).toBeNull();
    expect(safeHref('')).toBeNull();
    expect(normaliseLink('x.com/ada')).toEqual({ value: 'https://x.com/ada', error: null });
  });

  it('accepts png, jpeg and webp avatars under 2 MB', () => {
    expect(avatarFileError({ type: 'text/plain', size: 10 })).toBe(NOT_AN_IMAGE);
    expect(avatarFileError({ type: 'image/gif', size: 10 })).toBe(NOT_AN_IMAGE);
    expect(avatarFileError({ type: 'image/png', size: 3 * 1024 * 1024 })).toBe(IMAGE_TOO_LARGE);
    expect(avatarFileError({ type: 'image/webp', size: 2 * 1024 * 1024 })).toBe(IMAGE_TOO_LARGE);
    expect(avatarFileError({ type: 'image/jpeg', size: 1024 })).toBeNull();
  });

  it('shows the month and year the member joined', () => {
    expect(memberSince('2026-03-14T10:00:00.000Z')).toBe('Member since March 2026');
    expect(memberSince('nope')).toBeNull();
  });
});
