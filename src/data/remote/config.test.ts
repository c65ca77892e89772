import { afterEach, describe, expect, it, vi } from 'vitest';
import { BACKEND_CONFIG_STORAGE_KEY, loadBackendConfig } from './config';

const CONFIG = { url: 'http://127.0.0.1:9999', anonKey: 'anon' };

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('loadBackendConfig', () => {
  it('asks the embedded server, and remembers the answer for an offline start', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(CONFIG)),
    );
    await expect(loadBackendConfig()).resolves.toEqual(CONFIG);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(loadBackendConfig()).resolves.toEqual(CONFIG);
    expect(JSON.parse(localStorage.getItem(BACKEND_CONFIG_STORAGE_KEY)!)).toEqual(CONFIG);
  });

  it("in production (no URL in the answer) the backend is the page's own origin", async () => {
    const fetch = vi.fn(async () => Response.json({ url: null, anonKey: 'anon' }));
    vi.stubGlobal('fetch', fetch);
    await expect(loadBackendConfig()).resolves.toEqual({
      url: window.location.origin,
      anonKey: 'anon',
    });
    expect(window.location.origin).toMatch(/^https?:\/\//);
    expect(fetch).toHaveBeenCalledWith('/_app/config', expect.anything());
  });

  it('fails offline when it never saw the config, and on an answer without it', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(loadBackendConfig()).rejects.toThrow('Failed to fetch');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('no', { status: 404 })),
    );
    await expect(loadBackendConfig()).rejects.toThrow('backend URL or anon key is missing');
  });
});
