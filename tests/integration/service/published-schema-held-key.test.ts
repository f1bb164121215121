/**
 * A published schema is searched for every key the process holds, not only the one its request
 * sent (or none, for fal's public schema): a hostile service may echo a key it learnt elsewhere
 * (another service's) into a schema, which would be kept in the book of model options (a file)
 * and shown in the window. Over real HTTP on loopback against the demo's Replicate and fal
 * dialects, through the fronts that refresh: the window's `models:refresh` handler over the real
 * core's book (its credentials' heldKeys), and the command line's first use (compare's keys).
 * Each encoding the key-echo tests cover is refused with the sentence that keeps the known
 * options in use, which carries no key; nothing is kept or written.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openParamSchemaBook } from '../../../electron/core/param-schemas';
import type { PictorCore } from '../../../electron/core/pictor-core';
import { fetchOnFirstUse } from '../../../electron/cli/models-schemas';
import { parseCliArgs } from '../../../electron/demo-service/cli-args';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService, FaultRule } from '../../../electron/demo-service/types';
import { modelOptionsHandlers } from '../../../electron/ipc/model-options-handlers';
import type { CredentialsProvider } from '../../../electron/ports/credentials';
import type { ProviderId } from '../../../shared/domain/providers';
import { StaticCredentials } from '../../fakes/static-credentials';
import { ipcCaller } from '../../support/ipc';
import { openTestCore } from '../core/core-harness';
import {
  ENCODINGS,
  ENCODING_NAMES,
  keyScanner,
} from '../../hardening/key-and-bodies/key-encodings';
import { TempFolders } from '../../support/temp-folders';

/** The key the refresh sends (Replicate's), and another the process holds (another service's). */
const SENT = 'r8_schema-sent-Hx4Nq7Wd2Kp9';
const OTHER = 'fal-other-held-Vb6Tz3Rm8Qy1';
const dirs = new TempFolders();
const services: Record<'replicate' | 'fal', DemoService | undefined> = {
  replicate: undefined,
  fal: undefined,
};

async function demo(dialect: 'replicate' | 'fal'): Promise<DemoService> {
  const command = parseCliArgs(['--port', '0', '--dialect', dialect, '--key', `a:${SENT}`]);
  if (command.kind !== 'run') throw new Error('not a demo command');
  const { testImageEngine } = await import('../../support/image-engine');
  return startDemoService({ images: testImageEngine, ...command.options });
}

beforeAll(async () => {
  services.replicate = await demo('replicate');
  services.fal = await demo('fal');
});

afterAll(async () => {
  for (const service of Object.values(services)) await service?.close();
  await dirs.removeAll();
});

const MODELS = { replicate: 'a/b', fal: 'fal-ai/flux/dev' } as const;

/**
 * A schema Pictor reads (an enum and a number) as `provider` publishes it (Replicate: a Cog
 * `Input`; fal: an OpenAPI POST body), `said` in a description and an option.
 */
function schemaSaying(provider: 'replicate' | 'fal', said: string): string {
  const mode = { type: 'string', enum: ['fast', said], default: 'fast', description: said };
  const steps = { type: 'integer', minimum: 1, maximum: 50, description: 'Steps.' };
  const input = { type: 'object', properties: { mode, steps } };
  if (provider === 'replicate')
    return JSON.stringify({ components: { schemas: { Input: input } } });
  const body = { content: { 'application/json': { schema: input } } };
  return JSON.stringify({ paths: { [`/${MODELS.fal}`]: { post: { requestBody: body } } } });
}

/** The next schema `provider`'s demo answers says `said`. */
function nextSchemaSays(provider: 'replicate' | 'fal', said: string): void {
  const effect = { type: 'body', body: schemaSaying(provider, said) };
  services[provider]!.addFault({ route: 'schema', effect, times: 1 } as FaultRule);
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

describe('a published schema that carries another key the process holds', () => {
  let core: PictorCore;
  let dataDir = '';
  let invoke: ReturnType<typeof ipcCaller>;

  beforeAll(async () => {
    const dir = await dirs.make('schema-held');
    dataDir = join(dir, 'data');
    const url = services.replicate!.url;
    // The app's credentials: the key sent for Replicate's address, and another service's held.
    core = await openTestCore(dir, new StaticCredentials(url, SENT, url, [OTHER]), {
      historyPort: { inThread: true },
    });
    const addresses: Record<string, string> = { replicate: url, fal: services.fal!.url };
    invoke = ipcCaller(
      modelOptionsHandlers({
        options: core.paramSchemas,
        addressOf: (provider: ProviderId) => addresses[provider] ?? null,
        // Replicate's stored key goes with its schema; fal's schema is public (no key sent).
        storedKeyOf: (provider, baseUrl) =>
          Promise.resolve(
            provider === 'replicate'
              ? { found: 'key', credentials: { baseUrl, key: SENT, keyFingerprint: 'f', provider } }
              : { found: 'none' },
          ),
      }),
    );
  });

  afterAll(async () => {
    await core.close();
  });

  for (const provider of ['replicate', 'fal'] as const) {
    it.each(ENCODING_NAMES)(
      `is refused by models:refresh, nothing kept (${provider}, %s)`,
      async (encoding) => {
        nextSchemaSays(provider, `mode ${ENCODINGS[encoding]!(OTHER, 1)}`);
        const answer = await invoke('models:refresh', { provider, model: MODELS[provider] });
        expect(answer).toMatchObject({
          ok: true,
          value: { ok: false, problem: { key: 'error.params.schemaCarriesKey' }, kept: [] },
        });
        expect(keyScanner(OTHER).leaks(JSON.stringify(answer))).toEqual([]);
        expect(keyScanner(SENT).leaks(JSON.stringify(answer))).toEqual([]);
        expect(core.paramSchemas.kept()).toEqual([]);
        expect(await exists(join(dataDir, 'model-options.json'))).toBe(false);
      },
    );
  }

  // Last: it keeps a schema (the refusals above find the book empty).
  it.each(['replicate', 'fal'] as const)(
    'keeps one that carries no key (%s: the positive control)',
    async (provider) => {
      nextSchemaSays(provider, 'slow');
      const answer = await invoke('models:refresh', { provider, model: MODELS[provider] });
      expect(answer).toMatchObject({ ok: true, value: { ok: true } });
      expect(JSON.stringify(core.paramSchemas.kept())).toContain('slow');
    },
  );
});

describe('a model’s first use on the command line', () => {
  it('refuses a schema that carries another key the command holds, and keeps nothing', async () => {
    const dir = await dirs.make('schema-held');
    const book = await openParamSchemaBook(dir);
    const url = services.replicate!.url;
    // compare's keys: PICTOR_KEY_REPLICATE sent to its address, another provider's held beside it.
    const keys: CredentialsProvider = {
      currentEndpoint: () => url,
      credentialsFor: (endpoint) =>
        Promise.resolve(
          endpoint === url
            ? { baseUrl: url, key: SENT, keyFingerprint: 'f', provider: 'replicate' }
            : null,
        ),
      heldKeys: () => Promise.resolve([SENT, OTHER]),
      baseUrlFor: (endpoint) => (endpoint === url ? url : null),
    };
    const stderr: string[] = [];
    const io = {
      env: {},
      stdout: () => undefined,
      stderr: (text: string) => stderr.push(text),
    } as unknown as Parameters<typeof fetchOnFirstUse>[2];
    for (const encoding of ['raw', 'base64', 'hexLower', 'percentEveryByte', 'zeroWidth']) {
      nextSchemaSays('replicate', `mode ${ENCODINGS[encoding]!(OTHER, 2)}`);
      const where = { provider: 'replicate' as const, baseUrl: url, model: 'c/d', keys };
      await fetchOnFirstUse(book, where, io);
      expect(stderr.pop(), encoding).toMatch(/published for c\/d contain an API key/);
      expect(keyScanner(OTHER).leaks(stderr.join('\n')), encoding).toEqual([]);
      expect(book.kept(), encoding).toEqual([]);
      expect(await exists(join(dir, 'model-options.json')), encoding).toBe(false);
    }
  });
});
