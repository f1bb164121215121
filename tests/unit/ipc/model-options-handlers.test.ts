/**
 * The `models:` channels as the page calls them: a refresh names a provider and a model only (no
 * key, no address, no other field), refused before main otherwise; main fetches from the
 * provider's saved address, with the stored key only where it was entered for that address.
 */
import { describe, expect, it } from 'vitest';
import type { ModelOptions } from '../../../electron/core/param-schemas';
import { modelOptionsHandlers } from '../../../electron/ipc/model-options-handlers';
import type { ServiceCredentials } from '../../../electron/ports/credentials';
import type { ProviderId } from '../../../shared/domain/providers';
import { ipcCaller } from '../../support/ipc';

const STORED_KEY = 'stored-key-0123456789';

function caller(stored: 'key' | 'none') {
  const asked: Array<{ credentials: ServiceCredentials; model: string }> = [];
  const options: ModelOptions = {
    kept: () => [],
    refresh: (credentials, model) => {
      asked.push({ credentials, model });
      return Promise.resolve({ ok: true });
    },
    close: () => Promise.resolve(),
  };
  const handlers = modelOptionsHandlers({
    options,
    addressOf: (provider: ProviderId) => (provider === 'fal' ? 'http://127.0.0.1:9' : null),
    storedKeyOf: (provider, baseUrl) =>
      Promise.resolve(
        stored === 'key'
          ? {
              found: 'key',
              credentials: { baseUrl, key: STORED_KEY, keyFingerprint: 'f', provider },
            }
          : { found: 'none' },
      ),
  });
  return { invoke: ipcCaller(handlers), asked };
}

describe('models:refresh', () => {
  it('refuses a key, an address, another field or a bad model before main', async () => {
    const { invoke, asked } = caller('key');
    const refused = [
      undefined,
      { provider: 'fal' },
      { provider: 'fal', model: '' },
      { provider: 'fal', model: '   ' },
      { provider: 'fal', model: 'x'.repeat(201) },
      { provider: 'nobody', model: 'fal-ai/flux/dev' },
      { provider: 'fal', model: 'fal-ai/flux/dev', key: 'page-key-0123456789' },
      { provider: 'fal', model: 'fal-ai/flux/dev', baseUrl: 'http://evil.example' },
      { provider: 'fal', model: 42 },
    ];
    for (const input of refused) {
      expect(await invoke('models:refresh', input), JSON.stringify(input)).toMatchObject({
        ok: false,
        error: { code: 'bad_input' },
      });
    }
    expect(asked).toEqual([]);
  });

  it('asks the saved address with the key stored for it, and with none where none is', async () => {
    const withKey = caller('key');
    const answer = await withKey.invoke('models:refresh', { provider: 'fal', model: ' a/b ' });
    expect(answer).toEqual({ ok: true, value: { ok: true, kept: [] } });
    expect(withKey.asked).toEqual([
      {
        model: 'a/b',
        credentials: expect.objectContaining({ baseUrl: 'http://127.0.0.1:9', key: STORED_KEY }),
      },
    ]);
    const without = caller('none');
    await without.invoke('models:refresh', { provider: 'fal', model: 'a/b' });
    expect(without.asked[0]?.credentials).toMatchObject({ baseUrl: 'http://127.0.0.1:9', key: '' });
  });
});
