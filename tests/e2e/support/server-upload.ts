/**
 * A track uploaded the way the app uploads one, without its page: the audio object through
 * Storage, then the track row through REST, as the artist (the server processes it on its
 * workers). For specs about what happens after an upload.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { makeWav, synthSignal } from '../../../server/processing/test-fixtures';
import { authHeadersOf, type TestUser } from './session';

export interface ArtistApi {
  /** apikey and bearer headers of the artist's session. */
  auth: { apikey: string; authorization: string };
  /** Uploads a `seconds`-long WAV as a track titled `title`; resolves to the track's id. */
  upload(title: string, seconds?: number): Promise<string>;
  /** The track's processing status and the qualities the server made. */
  state(id: string): Promise<{ status: string; qualities: string[] } | undefined>;
}

export async function artistApi(request: APIRequestContext, artist: TestUser): Promise<ArtistApi> {
  const auth = await authHeadersOf(request, artist);
  return {
    auth,
    async upload(title, seconds = 6) {
      const name = `${artist.id}/${Date.now()}_${title.replace(/\s+/g, '_')}.wav`;
      const upload = await request.post(`/storage/v1/object/tracks/${name}`, {
        headers: { ...auth, 'content-type': 'audio/wav', 'x-upsert': 'false' },
        data: Buffer.from(makeWav(synthSignal(seconds))),
      });
      expect(upload.ok(), await upload.text()).toBe(true);
      const insert = await request.post('/rest/v1/tracks?select=id', {
        headers: {
          ...auth,
          prefer: 'return=representation',
          accept: 'application/vnd.pgrst.object+json',
        },
        data: { title, artist: artist.name, audio_url: `tracks/${name}`, uploaded_by: artist.id },
      });
      expect(insert.ok(), await insert.text()).toBe(true);
      return ((await insert.json()) as { id: string }).id;
    },
    async state(id) {
      const res = await request.get(`/rest/v1/tracks?id=eq.${id}&select=status,qualities`, {
        headers: auth,
      });
      return ((await res.json()) as { status: string; qualities: string[] }[])[0];
    },
  };
}
