import { describe, expect, it } from 'vitest';
import { MAX_SCHEMA_CHARS, readFetchedSchema } from '../../../shared/domain/fetched-param-schema';

/** A fal OpenAPI document of one model (the shape of fal.ai/api/openapi/queue/openapi.json). */
function falDocument(input: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    openapi: '3.0.4',
    paths: {
      '/fal-ai/x/requests/{request_id}': { get: {} },
      '/fal-ai/x': {
        post: {
          requestBody: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/XInput' } } },
          },
        },
      },
    },
    components: { schemas: { XInput: { type: 'object', properties: input }, ...extra } },
  });
}

/** A Replicate version's `openapi_schema` (enums behind `allOf: [{$ref}]`, as Cog writes them). */
function replicateDocument(
  input: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    components: { schemas: { Input: { type: 'object', properties: input }, ...extra } },
  });
}

describe('a schema a service publishes, read as hostile input', () => {
  it('reads fal’s model input: every kind, defaults, ranges and common hints', () => {
    const schema = readFetchedSchema(
      falDocument({
        prompt: { type: 'string' },
        image_url: { type: 'string' },
        seed: { anyOf: [{ type: 'integer' }, { type: 'null' }], title: 'Seed' },
        num_images: { type: 'integer', minimum: 1, maximum: 4, default: 1 },
        guidance_scale: { type: 'number', minimum: 1, maximum: 20, multipleOf: 0.5, default: 3.5 },
        aspect_ratio: { enum: ['1:1', '16:9'], default: '1:1' },
        enable_safety_checker: { type: 'boolean', default: true },
        negative_prompt: { type: 'string', maxLength: 500, default: '' },
      }),
      'fal',
    );
    expect(schema?.params).toEqual({
      seed: {
        type: 'integer',
        min: 0,
        max: Number.MAX_SAFE_INTEGER,
        title: 'Seed',
        common: 'seed',
      },
      num_images: { type: 'integer', min: 1, max: 4, default: 1, common: 'count' },
      guidance_scale: {
        type: 'number',
        min: 1,
        max: 20,
        step: 0.5,
        default: 3.5,
        common: 'guidance',
      },
      aspect_ratio: { type: 'enum', values: ['1:1', '16:9'], default: '1:1', common: 'aspect' },
      enable_safety_checker: { type: 'boolean', default: true, common: 'safety' },
      negative_prompt: { type: 'string', maxLength: 500, default: '', common: 'negative' },
    });
  });

  it('reads a Replicate version’s Input, following a local $ref to its enum', () => {
    const schema = readFetchedSchema(
      replicateDocument(
        {
          aspect_ratio: { allOf: [{ $ref: '#/components/schemas/aspect_ratio' }], default: '1:1' },
          num_outputs: { type: 'integer', minimum: 1, maximum: 4, default: 1 },
        },
        { aspect_ratio: { enum: ['1:1', '16:9'], type: 'string' } },
      ),
      'replicate',
    );
    expect(schema?.params['aspect_ratio']).toEqual({
      type: 'enum',
      values: ['1:1', '16:9'],
      default: '1:1',
      common: 'aspect',
    });
    expect(schema?.params['num_outputs']).toMatchObject({ type: 'integer', min: 1, max: 4 });
  });

  it('follows no $ref loop, outside reference or reference chain beyond its bound', () => {
    const loop = replicateDocument(
      { a: { $ref: '#/components/schemas/A' }, b: { $ref: 'https://evil.example/schema.json' } },
      { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } },
    );
    expect(readFetchedSchema(loop, 'replicate')).toBeUndefined();
    const chain: Record<string, unknown> = { R20: { type: 'boolean' } };
    for (let n = 0; n < 20; n++) chain[`R${n}`] = { $ref: `#/components/schemas/R${n + 1}` };
    const long = replicateDocument({ deep: { $ref: '#/components/schemas/R0' } }, chain);
    expect(readFetchedSchema(long, 'replicate')).toBeUndefined();
  });

  it('refuses a document too large, too deep or with too many nodes', () => {
    const big = replicateDocument({ a: { type: 'boolean', title: 'x'.repeat(MAX_SCHEMA_CHARS) } });
    expect(readFetchedSchema(big, 'replicate')).toBeUndefined();
    let deep: unknown = { type: 'boolean' };
    for (let n = 0; n < 40; n++) deep = { nest: deep };
    expect(
      readFetchedSchema(replicateDocument({ a: { type: 'boolean' } }, { D: deep }), 'replicate'),
    ).toBeUndefined();
    const wide = Array.from({ length: 60_000 }, () => 0);
    expect(
      readFetchedSchema(replicateDocument({ a: { type: 'boolean' } }, { W: wide }), 'replicate'),
    ).toBeUndefined();
    expect(readFetchedSchema('{not json', 'fal')).toBeUndefined();
    expect(readFetchedSchema('[]', 'fal')).toBeUndefined();
  });

  it('drops what it cannot render, hostile names, bad defaults and unknown keywords', () => {
    const schema = readFetchedSchema(
      replicateDocument({
        __proto__: { type: 'boolean' },
        constructor: { type: 'boolean' },
        'bad-name': { type: 'boolean' },
        obj: { type: 'object', properties: { x: { type: 'integer' } } },
        list: { type: 'array', items: { type: 'string' } },
        link: { type: 'string', format: 'uri' },
        mask_url: { type: 'string' },
        inverted: { type: 'integer', minimum: 5, maximum: 1 },
        huge: { type: 'number', maximum: 1e308 },
        wrong_default: { type: 'integer', minimum: 1, maximum: 4, default: 9 },
        controls: { enum: ['a\u202eb'] },
        separated: { enum: ['a\u2028b'] },
        escaped_default: { type: 'string', default: '\u001b]52;c;cm0K\u0007' },
        many: { enum: Array.from({ length: 65 }, (_, n) => n) },
        alike: { enum: [1, '1', 2] },
        twice: { enum: ['vivid', 'natural', 'vivid'] },
        long_text: {
          type: 'string',
          maxLength: 1e9,
          title: 'A\u0000B',
          'x-evil': 'y',
          pattern: '(a+)+',
        },
      }),
      'replicate',
    );
    expect(Object.keys(schema?.params ?? {}).sort()).toEqual([
      'escaped_default',
      'huge',
      'long_text',
      'wrong_default',
    ]);
    expect(schema?.params['escaped_default']).not.toHaveProperty('default');
    expect(schema?.params['huge']).toMatchObject({ max: Number.MAX_SAFE_INTEGER });
    expect(schema?.params['wrong_default']).not.toHaveProperty('default');
    expect(schema?.params['long_text']).toEqual({ type: 'string', maxLength: 4000, title: 'A B' });
  });

  it('keeps at most 48 options', () => {
    const many = Object.fromEntries(
      Array.from({ length: 100 }, (_, n) => [`p${n}`, { type: 'boolean' }]),
    );
    expect(
      Object.keys(readFetchedSchema(replicateDocument(many), 'replicate')?.params ?? {}),
    ).toHaveLength(48);
  });
});
