import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { PlaylistForm, PLAYLIST_NAME_REQUIRED } from './playlist-form';

// jsdom has no document.fonts, which the autosizing Description textarea listens to.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}

function renderForm(onSubmit = vi.fn(() => Promise.resolve())) {
  render(
    <MantineProvider env="test">
      <PlaylistForm submitLabel="Create Playlist" onSubmit={onSubmit} onCancel={() => undefined} />
    </MantineProvider>,
  );
  return onSubmit;
}

it('refuses a blank name and does not submit', async () => {
  const onSubmit = renderForm();
  await userEvent.type(screen.getByLabelText(/Playlist Name/), '    ');
  await userEvent.click(screen.getByRole('button', { name: 'Create Playlist' }));
  expect(screen.getByText(PLAYLIST_NAME_REQUIRED)).toBeInTheDocument();
  expect(onSubmit).not.toHaveBeenCalled();
}, 20_000);

it('submits the trimmed name and description; the error clears on typing', async () => {
  const onSubmit = renderForm();
  await userEvent.click(screen.getByRole('button', { name: 'Create Playlist' }));
  expect(screen.getByText(PLAYLIST_NAME_REQUIRED)).toBeInTheDocument();
  await userEvent.type(screen.getByLabelText(/Playlist Name/), '  Night Drive ');
  expect(screen.queryByText(PLAYLIST_NAME_REQUIRED)).not.toBeInTheDocument();
  await userEvent.type(screen.getByLabelText('Description'), ' Synths ');
  await userEvent.click(screen.getByRole('button', { name: 'Create Playlist' }));
  expect(onSubmit).toHaveBeenCalledWith({ name: 'Night Drive', description: 'Synths' });
}, 20_000);
