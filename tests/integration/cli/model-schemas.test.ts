/**
 * The models' options Pictor did not ship, on the command line against the demo's dialects on
 * loopback: `models show MODEL --refresh` fetches the published schema and keeps it (then shown
 * without asking the service again, and used by generate's --param); a failure says its sentence and shows the shipped options;
 * `models import-schema FILE --model M` keeps a file's options for the seed's own service, and a
 * hostile file is refused with a sentence.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { expectExit } from './cli-harness';
import { useProviderWorlds } from './providers-harness';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const newWorld = useProviderWorlds();

describe('models show --refresh', () => {
  it('fetches the published options, keeps them, and shows them offline', async () => {
    const world = await newWorld('fal');
    const model = ['models', 'show', 'fal-ai/flux/dev', '--provider', 'fal'];
    const before = await world.run(model);
    expectExit(before, 0);
    expect(before.stdout).not.toContain('acceleration');
    const fetched = await world.run([...model, '--refresh', '--base-url', world.service.url]);
    expectExit(fetched, 0);
    expect(fetched.stdout).toMatch(/acceleration: one of none, regular, high; default none/);
    const requests = (await world.service.log()).requests.filter((r) => r.route === 'schema');
    expect(requests.map((r) => r.auth)).toEqual([null]);
    // The service is asked nothing more: the kept options are shown.
    const offline = await world.run(model);
    expect(offline.stdout).toContain('acceleration');
  });

  it('lets generate type and send an option only the fetched schema has', async () => {
    const world = await newWorld('fal');
    // Kept from an earlier refresh: generate asks the service nothing more.
    const refresh = ['models', 'show', 'fal-ai/flux/dev', '--provider', 'fal', '--refresh'];
    expectExit(await world.run([...refresh, '--base-url', world.service.url]), 0);
    const after = await world.run(
      [
        'generate',
        ...world.named,
        '--model',
        'fal-ai/flux/dev',
        '--param',
        'acceleration=high',
      ].concat(['--prompt', 'a fox', '--dry-run']),
      { key: null },
    );
    expectExit(after, 0);
    expect(after.stdout).toContain('"acceleration": "high"');
    expect(await schemaRequests(world)).toHaveLength(1);
  });

  it('keeps the shipped options and says why when the answer is hostile', async () => {
    const world = await newWorld('fal');
    const deep = `${'['.repeat(60)}${']'.repeat(60)}`;
    await world.service.control('faults', {
      route: 'schema',
      effect: { type: 'body', body: `{"paths":${deep}}` },
    });
    const run = await world.run([
      'models',
      'show',
      'fal-ai/flux/dev',
      '--provider',
      'fal',
      '--refresh',
      '--base-url',
      world.service.url,
    ]);
    expectExit(run, 1);
    expect(run.stderr).toMatch(/the options Pictor knows stay in use/);
    expect(run.stdout).toContain('num_inference_steps');
    expect(run.stdout).not.toContain('acceleration');
  });
});

/** The schema requests the demo received. */
async function schemaRequests(world: Awaited<ReturnType<typeof newWorld>>) {
  return (await world.service.log()).requests.filter((entry) => entry.route === 'schema');
}

/** `generate` of `model` with `options`, on the world's service, printing the body only. */
function dryRun(world: Awaited<ReturnType<typeof newWorld>>, model: string, options: string[]) {
  return [
    'generate',
    ...world.named,
    '--model',
    model,
    ...options,
    '--prompt',
    'a fox',
    '--dry-run',
  ];
}

describe('generate on a model’s first use', () => {
  it('fetches fal’s published options before typing --param, once, without the key', async () => {
    const world = await newWorld('fal');
    const line = dryRun(world, 'fal-ai/flux/dev', ['--param', 'acceleration=high']);
    const first = await world.run(line);
    expectExit(first, 0);
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('"acceleration": "high"');
    expect((await schemaRequests(world)).map((entry) => entry.auth)).toEqual([null]);
    // Kept: the next use asks the service nothing, and works with the service gone.
    const again = await world.run(line);
    expectExit(again, 0);
    expect(await schemaRequests(world)).toHaveLength(1);
  });

  it('fetches Replicate’s with the key to its own address and sends the fetched option', async () => {
    const world = await newWorld('replicate');
    const model = 'black-forest-labs/flux-1.1-pro-ultra';
    const run = await world.run([
      'generate',
      ...world.named,
      '--model',
      model,
      '--param',
      'acceleration=regular',
      '--aspect',
      '16:9',
      '--prompt',
      'a fox',
      '--json',
    ]);
    expectExit(run, 0);
    const [asked] = await schemaRequests(world);
    expect(asked?.auth?.value).toBe(`Bearer ${world.service.key}`);
    const [submit] = (await world.service.log()).submits;
    expect(submit?.body).toMatchObject({
      input: { acceleration: 'regular', aspect_ratio: '16:9' },
    });
  });

  it('asks nothing when no option of the model is typed', async () => {
    const world = await newWorld('fal');
    expectExit(await world.run(dryRun(world, 'fal-ai/flux/dev', [])), 0);
    expect(await schemaRequests(world)).toEqual([]);
  });

  it.each([
    ['an error answer', { type: 'status', status: 503 }, /could not be fetched from/],
    ['a hostile answer', { type: 'body', body: '[[[[' }, /too large, too deep, loop on themselves/],
    ['a dropped connection', { type: 'reset' }, /could not be fetched from/],
  ])('falls back to the shipped options with a notice on %s', async (_what, effect, said) => {
    const world = await newWorld('fal');
    await world.service.control('faults', { route: 'schema', effect });
    const shipped = await world.run(
      dryRun(world, 'fal-ai/flux/dev', ['--param', 'num_inference_steps=12']),
    );
    expectExit(shipped, 0);
    expect(shipped.stderr).toMatch(said);
    expect(shipped.stderr).toMatch(/the options Pictor knows stay in use/);
    expect(shipped.stderr).not.toMatch(/\bat \S+:\d+|Error:/);
    expect(shipped.stdout).toContain('"num_inference_steps": 12');
    // The fetched option is unknown to the shipped ones: refused with exit 2, nothing sent.
    const fetchedOnly = await world.run(
      dryRun(world, 'fal-ai/flux/dev', ['--param', 'acceleration=high']),
    );
    expectExit(fetchedOnly, 2);
    expect(fetchedOnly.stderr).toMatch(/has no option “acceleration”/);
  });

  it('falls back offline, the service out of reach', async () => {
    const world = await newWorld('fal');
    const closed = 'http://127.0.0.1:9';
    const run = await world.run(
      ['generate', '--provider', 'fal', '--base-url', closed, '--model', 'fal-ai/flux/dev'].concat([
        '--seed',
        '5',
        '--prompt',
        'a fox',
        '--dry-run',
      ]),
      { key: null },
    );
    expectExit(run, 0);
    expect(run.stderr).toMatch(
      /could not be fetched from .*: the options Pictor knows stay in use/,
    );
    expect(run.stdout).toContain('"seed": 5');
  });

  it('says the settings’ sentence, never the key, when Replicate’s options need a key not set', async () => {
    const world = await newWorld('replicate');
    const model = 'black-forest-labs/flux-1.1-pro-ultra';
    const run = await world.run(dryRun(world, model, ['--aspect', '16:9']), { key: null });
    expectExit(run, 0);
    expect(run.stderr).toBe(
      `No API key is set. Set SERVICE_API_KEY. The options Pictor knows for ${model} stay in use.\n`,
    );
    expect(await schemaRequests(world)).toEqual([]);
    expect(run.stdout).toContain('"aspect_ratio": "16:9"');
  });
});

describe('models import-schema', () => {
  it('keeps a file’s options for the seed’s own service, and refuses a hostile file', async () => {
    const world = await newWorld('fal');
    const good = join(world.home, 'options.json');
    const schema = {
      type: 'object',
      properties: {
        style: { enum: ['vivid', 'natural'], default: 'vivid' },
        seed: { type: 'integer', minimum: 0, maximum: 99 },
        image_url: { type: 'string' },
      },
    };
    await writeFile(good, JSON.stringify(schema));
    const kept = await world.run(['models', 'import-schema', good, '--model', 'house-model']);
    expectExit(kept, 0);
    expect(kept.stdout).toContain('pictor house-model: options style, seed kept.');
    const shown = await world.run(['models', 'show', 'house-model', '--provider', 'pictor']);
    expect(shown.stdout).toMatch(/style: one of vivid, natural; default vivid/);
    const hostile = join(world.home, 'loop.json');
    const loop = {
      properties: { a: { $ref: '#/components/schemas/A' } },
      components: { schemas: { A: { $ref: '#/components/schemas/A' } } },
    };
    await writeFile(hostile, JSON.stringify(loop));
    const refused = await world.run(['models', 'import-schema', hostile, '--model', 'other']);
    expectExit(refused, 1);
    expect(refused.stderr).toMatch(/The file holds no options Pictor can use/);
  });

  const deep = `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`;
  const CRAFTED: readonly [string, string][] = [
    [
      'too big',
      JSON.stringify({ properties: { a: { type: 'string' } }, pad: 'x'.repeat(600 * 1024) }),
    ],
    ['too deep', `{"properties":{"steps":${deep}}}`],
    [
      'a $ref loop',
      JSON.stringify({
        properties: { mode: { $ref: '#/components/schemas/A' } },
        components: {
          schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } },
        },
      }),
    ],
    [
      'only types Pictor cannot show',
      JSON.stringify({
        properties: {
          list: { type: 'array', items: { type: 'string' } },
          obj: { type: 'object' },
          link: { type: 'string', format: 'uri' },
          range: { type: 7 },
          mode: { enum: 'vivid' },
        },
      }),
    ],
    ['not JSON', '{"properties": {'],
  ];

  it.each(CRAFTED)(
    'refuses a crafted file with a sentence, keeping nothing: %s',
    async (_what, text) => {
      const world = await newWorld('fal');
      const folder = await tempFolder('crafted');
      onTestFinished(() => removeFolder(folder));
      const file = join(folder, 'crafted.json');
      await writeFile(file, text);
      const run = await world.run(['models', 'import-schema', file, '--model', 'crafted']);
      expectExit(run, 1);
      expect(run.stderr).toBe(
        'The file holds no options Pictor can use: give a JSON schema of at most 512 KB whose properties are choices, numbers, switches or text.\n',
      );
      const shown = await world.run(['models', 'show', 'crafted', '--provider', 'pictor']);
      expect(shown.stdout).not.toMatch(/list|steps|mode|obj|range/);
    },
  );
});
