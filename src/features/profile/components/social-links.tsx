import { Anchor, Group } from '@mantine/core';
import {
  IconBrandInstagram,
  IconBrandSpotify,
  IconBrandX,
  IconExternalLink,
} from '@tabler/icons-react';
import type { SocialLinks as Links } from '@/data';
import { safeHref, SOCIAL_KEYS, SOCIAL_LABELS } from '../profile-form';

const ICONS = { twitter: IconBrandX, instagram: IconBrandInstagram, spotify: IconBrandSpotify };

/** Twitter, Instagram, Spotify as external links (http(s) only; noopener noreferrer). */
export function SocialLinks({ links }: { links: Links }) {
  const items = SOCIAL_KEYS.flatMap((key) => {
    const href = safeHref(links[key]);
    return href ? [{ key, href }] : [];
  });
  if (!items.length) return null;
  return (
    <Group gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map(({ key, href }) => {
        const Icon = ICONS[key];
        return (
          <li key={key}>
            <Anchor
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
              c="gray.2"
              px="sm"
              py={6}
              style={{
                display: 'inline-flex',
                alignItems: 'center',
                gap: 6,
                borderRadius: 999,
                border: '1px solid var(--mantine-color-dark-4)',
              }}
            >
              <Icon size={16} aria-hidden />
              {SOCIAL_LABELS[key]}
              <IconExternalLink size={12} aria-hidden />
            </Anchor>
          </li>
        );
      })}
    </Group>
  );
}
