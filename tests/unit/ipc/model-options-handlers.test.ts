/**
 * The `models:` channels as the page calls them: a refresh names a provider and a model only (no
 * key, no address, no other field), refused before main otherwise; main fetches from the
 * provider's saved address, with the stored key only where it was entered for that address.
 * "Options from a file…" reads only the file main's own dialog chose, over the library's real book
 * of model options in a temporary folder: kept and answered, refused with its sentence, or
 * nothing when the dialog was cancelled; "None" forgets a file's options, never a service's.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  openModelOptions,
  openParamSchemaBook,
  type ModelOptions,
} from '../../../electron/core/param-schemas';
import { modelOptionsHandlers } from '../../../electron/ipc/model-options-handlers';
import type { ServiceCredentials } from '../../../electron/ports/credentials';
import type { ProviderId } from '../../../shared/domain/providers';
import { ipcCaller } from '../../support/ipc';
import { TempFolders } from '../../support/temp-folders';

const STORED_KEY = 'stored-key-0123456789';

function caller(stored: 'key' | 'none') {
  const asked: Array<{ credentials: ServiceCredentials; model: string }> = [];
  const options: ModelOptions = {
    kept: () => [],
    refresh: (credentials, model) => {
      asked.push({ credentials, model });
      return Promise.resolve({ ok: true });
    },
    firstUse: () => Promise.reject(new Error('the handlers start no first use')),
    importFile: () => Promise.reject(new Error('no file is read here')),
    forget: () => Promise.resolve(false),
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

describe('models:fromFile', () => {
  const dirs = new TempFolders();
  afterEach(async () => {
    await dirs.removeAll();
  });

  /** The handlers over a real book in a temporary folder; the dialog answers `chosen()`. */
  async function fromFileCaller(chosen: () => string | null, dialogs = true) {
    const dir = await dirs.make('options-file');
    const options = await openModelOptions(join(dir, 'data'), fetch, {});
    const asked: number[] = [];
    const handlers = modelOptionsHandlers({
      options,
      addressOf: () => null,
      storedKeyOf: () => Promise.resolve({ found: 'none' }),
      ...(dialogs
        ? { dialogs: { chooseModelOptionsFile: () => (asked.push(1), Promise.resolve(chosen())) } }
        : {}),
    });
    return { invoke: ipcCaller(handlers), dir, asked, options };
  }

  it('keeps the options of the file main’s dialog chose, and nothing when it was cancelled', async () => {
    let path: string | null = null;
    const { invoke, dir, options } = await fromFileCaller(() => path);
    const cancelled = await invoke('models:fromFile', { provider: 'pictor', model: 'house' });
    expect(cancelled).toEqual({ ok: true, value: { ok: false, kept: [] } });
    path = join(dir, 'house.json');
    const schema = { properties: { style: { enum: ['vivid', 'natural'], title: 'Style' } } };
    await writeFile(path, JSON.stringify(schema));
    const kept = await invoke('models:fromFile', { provider: 'pictor', model: 'house' });
    expect(kept).toMatchObject({
      ok: true,
      value: { ok: true, kept: [{ provider: 'pictor', model: 'house', params: { style: {} } }] },
    });
    expect(options.kept()).toHaveLength(1);
  });

  it('forgets a file’s options on "None", never options fetched from a service, nor for a bad payload', async () => {
    let path = '';
    const { invoke, dir } = await fromFileCaller(() => path);
    path = join(dir, 'house.json');
    await writeFile(path, JSON.stringify({ properties: { style: { enum: ['a', 'b'] } } }));
    await invoke('models:fromFile', { provider: 'pictor', model: 'house' });
    // A service's options, kept by a refresh in another opening of the same library.
    const fetched = { params: { steps: { type: 'integer', min: 1, max: 9 } } } as const;
    const book = await openParamSchemaBook(join(dir, 'data'));
    await book.keep('fal', 'fal-ai/flux/dev', fetched, 'fetched');
    const reopened = await openModelOptions(join(dir, 'data'), fetch, {});
    const handlers = ipcCaller(
      modelOptionsHandlers({
        options: reopened,
        addressOf: () => null,
        storedKeyOf: () => Promise.resolve({ found: 'none' }),
      }),
    );
    for (const input of [
      { provider: 'pictor', model: 'house', all: true },
      { provider: 'pictor' },
    ]) {
      expect(await handlers('models:forget', input)).toMatchObject({
        ok: false,
        error: { code: 'bad_input' },
      });
    }
    // Fetched options are left to "Refresh options".
    await handlers('models:forget', { provider: 'fal', model: 'fal-ai/flux/dev' });
    const forgot = await handlers('models:forget', { provider: 'pictor', model: 'house' });
    expect(forgot).toEqual({
      ok: true,
      value: [{ provider: 'fal', model: 'fal-ai/flux/dev', ...fetched }],
    });
    // Written: a new opening of the book has the same.
    const again = await openParamSchemaBook(join(dir, 'data'));
    expect(again.kept().map((kept) => kept.model)).toEqual(['fal-ai/flux/dev']);
  });

  it('refuses a file it cannot use with the sentence, keeping nothing', async () => {
    let path = '';
    const { invoke, dir, options } = await fromFileCaller(() => path);
    path = join(dir, 'loop.json');
    const loop = {
      properties: { a: { $ref: '#/components/schemas/A' } },
      components: { schemas: { A: { $ref: '#/components/schemas/A' } } },
    };
    await writeFile(path, JSON.stringify(loop));
    const answer = await invoke('models:fromFile', { provider: 'pictor', model: 'house' });
    expect(answer).toMatchObject({
      ok: true,
      value: { ok: false, problem: { key: 'error.params.schemaFile' }, kept: [] },
    });
    expect(options.kept()).toEqual([]);
  });

  it('takes no path or other field from the page, and says so where main has no dialog', async () => {
    const { invoke, asked } = await fromFileCaller(() => null);
    for (const input of [
      { provider: 'pictor', model: 'house', path: '/etc/passwd' },
      { provider: 'pictor' },
      { provider: 'pictor', model: '' },
    ]) {
      expect(await invoke('models:fromFile', input), JSON.stringify(input)).toMatchObject({
        ok: false,
        error: { code: 'bad_input' },
      });
    }
    expect(asked).toEqual([]);
    const none = await fromFileCaller(() => null, false);
    const answer = await none.invoke('models:fromFile', { provider: 'pictor', model: 'house' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'failed' } });
  });
});
