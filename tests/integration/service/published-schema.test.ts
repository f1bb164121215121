/**
 * A model's options fetched from where its service publishes them, over real HTTP on loopback
 * against the demo's fal and Replicate dialects: read into Pictor's options (an option Pictor does
 * not ship comes with them), the key only to Replicate's own address and never to fal's public
 * schema, and every hostile answer (too large, too deep, a `$ref` loop, nothing renderable, a
 * redirect to another origin) refused with a sentence that keeps the shipped options in use.
 * The book keeps a fetched schema so it is used offline, in a later process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../electron/demo-service/cli-args';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService, FaultRule } from '../../../electron/demo-service/types';
import { fetchPublishedSchema } from '../../../electron/core/service/published-schema';
import { ParamSchemaBook } from '../../../electron/core/param-schemas/param-schema-book';
import { paramSchemaOf } from '../../../shared/domain/model-param-schemas';
import type { ProviderId } from '../../../shared/domain/providers';
import { testImageEngine } from '../../support/image-engine';
import { TempFolders } from '../../support/temp-folders';

const KEY = 'r8_schema-key-5f0c2a9e7d';
/** The global fetch; no key held besides the one sent. */
const OVER_FETCH = { fetch, heldKeys: undefined };
const open: DemoService[] = [];
const dirs = new TempFolders();

afterEach(async () => {
  for (const service of open.splice(0)) await service.close();
  await dirs.removeAll();
});

async function demo(dialect: 'fal' | 'replicate'): Promise<DemoService> {
  const command = parseCliArgs(['--port', '0', '--dialect', dialect, '--key', `a:${KEY}`]);
  if (command.kind !== 'run') throw new Error('not a demo command');
  const service = await startDemoService({ images: testImageEngine, ...command.options });
  open.push(service);
  return service;
}

function credentials(service: DemoService, provider: ProviderId) {
  return { baseUrl: service.url, key: KEY, keyFingerprint: 'f', provider };
}

/** The schema requests the demo received, with the key header each carried. */
function schemaRequests(service: DemoService) {
  return service.log.requests.filter((entry) => entry.route === 'schema');
}

describe('a published schema fetched over loopback', () => {
  it('reads fal’s per-model OpenAPI without sending the key', async () => {
    const service = await demo('fal');
    const read = await fetchPublishedSchema(
      OVER_FETCH,
      credentials(service, 'fal'),
      'fal-ai/flux/dev',
    );
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.schema.params['num_inference_steps']).toMatchObject({
      type: 'integer',
      min: 1,
      max: 50,
    });
    expect(read.schema.params['acceleration']).toMatchObject({ type: 'enum', default: 'none' });
    expect(read.schema.params['prompt']).toBeUndefined();
    const [asked] = schemaRequests(service);
    expect(asked?.path).toBe('/api/openapi/queue/openapi.json?endpoint_id=fal-ai%2Fflux%2Fdev');
    expect(asked?.auth).toBeNull();
  });

  it('reads Replicate’s latest version schema (Cog’s $ref choices) with the key', async () => {
    const service = await demo('replicate');
    const model = 'black-forest-labs/flux-1.1-pro-ultra';
    const read = await fetchPublishedSchema(OVER_FETCH, credentials(service, 'replicate'), model);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.schema.params['aspect_ratio']).toMatchObject({ type: 'enum', common: 'aspect' });
    expect(read.schema.params['acceleration']).toMatchObject({ type: 'enum', default: 'none' });
    expect(schemaRequests(service)[0]?.auth?.value).toBe(`Bearer ${KEY}`);
  });

  it('says a sentence for a model or a service that publishes none', async () => {
    const service = await demo('fal');
    const missing = await fetchPublishedSchema(
      OVER_FETCH,
      credentials(service, 'fal'),
      'fal-ai/nothing',
    );
    expect(missing).toMatchObject({ ok: false, problem: { key: 'error.params.schemaUnreached' } });
    const own = await fetchPublishedSchema(
      OVER_FETCH,
      credentials(service, 'pictor'),
      'gpt-image-1',
    );
    expect(own).toMatchObject({ ok: false, problem: { key: 'error.params.schemaNotPublished' } });
  });
});

describe('a published schema asked with the settings at fault', () => {
  it('answers the settings’ sentence when no key is stored for a service whose options need one', async () => {
    const service = await demo('replicate');
    const model = 'black-forest-labs/flux-1.1-pro-ultra';
    const noKey = { ...credentials(service, 'replicate'), key: '', keyFingerprint: '' };
    const read = await fetchPublishedSchema(OVER_FETCH, noKey, model);
    expect(read).toEqual({ ok: false, problem: { key: 'error.service.noKey' } });
    expect(service.log.requests, 'nothing was asked without the key').toEqual([]);
  });

  it('needs no key where the options are public (fal)', async () => {
    const service = await demo('fal');
    const noKey = { ...credentials(service, 'fal'), key: '', keyFingerprint: '' };
    const read = await fetchPublishedSchema(OVER_FETCH, noKey, 'fal-ai/flux/dev');
    expect(read.ok).toBe(true);
  });

  it('answers the settings’ sentence for an address it refuses, asking nothing', async () => {
    const service = await demo('replicate');
    const refused = { ...credentials(service, 'replicate'), baseUrl: 'ftp://127.0.0.1/' };
    const read = await fetchPublishedSchema(OVER_FETCH, refused, 'a/b');
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problem.key).toMatch(/^error\.service\./);
    expect(JSON.stringify(read)).not.toContain(KEY);
    expect(service.log.requests).toEqual([]);
  });
});

const deep = `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`;
const HOSTILE: readonly [string, string][] = [
  ['too large', JSON.stringify({ pad: 'x'.repeat(600 * 1024) })],
  [
    'too deep',
    JSON.stringify({
      components: { schemas: { Input: { properties: { steps: JSON.parse(deep) } } } },
    }),
  ],
  [
    'a $ref loop',
    JSON.stringify({
      components: {
        schemas: {
          Input: { properties: { mode: { $ref: '#/components/schemas/A' } } },
          A: { $ref: '#/components/schemas/B' },
          B: { $ref: '#/components/schemas/A' },
        },
      },
    }),
  ],
  [
    'nothing renderable',
    JSON.stringify({
      components: {
        schemas: {
          Input: {
            properties: {
              image_url: { type: 'string' },
              list: { type: 'array', items: { type: 'string' } },
              link: { type: 'string', format: 'uri' },
              obj: { type: 'object' },
            },
          },
        },
      },
    }),
  ],
  ['not JSON', '<html>'],
];

describe('a hostile published schema', () => {
  it.each(HOSTILE)('is refused: %s', async (_what, body) => {
    const service = await demo('replicate');
    service.addFault({ route: 'schema', effect: { type: 'body', body } } as FaultRule);
    const read = await fetchPublishedSchema(OVER_FETCH, credentials(service, 'replicate'), 'a/b');
    expect(read).toMatchObject({ ok: false, problem: { key: 'error.params.schemaUnusable' } });
  });

  it('is not followed to another origin, and the key never goes there', async () => {
    const service = await demo('replicate');
    const elsewhere = await demo('replicate');
    const location = `${elsewhere.url}/v1/models/a/b`;
    const effect = { type: 'body', status: 302, body: '', location };
    service.addFault({ route: 'schema', effect } as FaultRule);
    const read = await fetchPublishedSchema(OVER_FETCH, credentials(service, 'replicate'), 'a/b');
    expect(read).toMatchObject({ ok: false, problem: { key: 'error.params.schemaMoved' } });
    expect(elsewhere.log.requests).toEqual([]);
  });

  it('is followed inside its own origin', async () => {
    const service = await demo('replicate');
    const model = 'black-forest-labs/flux-1.1-pro-ultra';
    const effect = {
      type: 'body',
      status: 307,
      body: '',
      location: `${service.url}/v1/models/${model}`,
    };
    service.addFault({ route: 'schema', effect, times: 1 } as FaultRule);
    const read = await fetchPublishedSchema(OVER_FETCH, credentials(service, 'replicate'), model);
    expect(read.ok).toBe(true);
    expect(schemaRequests(service).map((entry) => entry.auth?.value)).toEqual([
      `Bearer ${KEY}`,
      `Bearer ${KEY}`,
    ]);
  });
});

describe('the book of model options', () => {
  it('keeps a fetched schema for offline use in a later process', async () => {
    const dataDir = await dirs.make('model-options');
    const service = await demo('fal');
    const read = await fetchPublishedSchema(
      OVER_FETCH,
      credentials(service, 'fal'),
      'fal-ai/flux/dev',
    );
    if (!read.ok) throw new Error('not fetched');
    await new ParamSchemaBook(dataDir, () => 1).keep(
      'fal',
      'fal-ai/flux/dev',
      read.schema,
      'fetched',
    );
    await service.close();
    open.splice(0);
    const later = new ParamSchemaBook(dataDir, () => 2);
    await later.open();
    expect(later.lookup('fal', 'fal-ai/flux/dev')?.params['acceleration']).toBeDefined();
    expect(paramSchemaOf('fal', 'fal-ai/flux/dev')?.params['acceleration']).toBeDefined();
  });
});
