/**
 * The /upload page model: files are made at test time (src/test/audio-fixtures.ts: a sine
 * encoded by lamejs, ID3v2.3 tags by browser-id3-writer, a PNG cover by pngjs) and dropped on
 * the page the way a desktop drag does (a DataTransfer holding the File).
 */
import { expect, type Page } from '@playwright/test';
import { pngCover, sineMp3, tagMp3, type Id3Tags } from '../../../src/test/audio-fixtures';

export interface Fixture {
  name: string;
  type: string;
  bytes: Uint8Array;
}

export function taggedMp3(name: string, seconds: number, tags: Id3Tags): Fixture {
  return { name, type: 'audio/mpeg', bytes: tagMp3(sineMp3(seconds), tags) };
}

export const coverPng = (size = 64): Fixture => ({
  name: 'cover.png',
  type: 'image/png',
  bytes: pngCover(size),
});

/** Drops `file` on the Audio File section, as a drag from the desktop does. */
export async function dropAudio(page: Page, file: Fixture): Promise<void> {
  const zone = page.getByTestId('audio-drop-zone');
  await expect(zone).toBeVisible();
  const dataTransfer = await page.evaluateHandle(
    ({ name, type, base64 }) => {
      const binary = atob(base64);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type }));
      return transfer;
    },
    { name: file.name, type: file.type, base64: Buffer.from(file.bytes).toString('base64') },
  );
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

/** Picks a file with the section's file picker. */
export async function pickFile(page: Page, label: string, file: Fixture): Promise<void> {
  await page.getByLabel(label, { exact: true }).setInputFiles({
    name: file.name,
    mimeType: file.type,
    buffer: Buffer.from(file.bytes),
  });
}
