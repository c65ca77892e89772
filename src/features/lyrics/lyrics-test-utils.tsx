/** Test helpers of the lyrics feature: Mantine in test mode and a track factory. */
import { MantineProvider } from '@mantine/core';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { Track } from '@/data';
import { testTrack } from '@/data/db/test-track';

export function renderUi(ui: ReactNode): RenderResult {
  return render(ui, {
    wrapper: ({ children }) => <MantineProvider env="test">{children}</MantineProvider>,
  });
}

export function createTrack(overrides: Partial<Track> = {}): Track {
  return testTrack('track-1', {
    title: 'Harbor Lights',
    artist: 'Neon Harbor',
    album: null,
    genre: 'Synthwave',
    duration: 40,
    audioUrl: '/audio/harbor.mp3',
    coverImage: null,
    uploadedBy: 'uploader-1',
    plays: 0,
    verified: true,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...overrides,
  });
}
