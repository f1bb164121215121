/**
 * The models' options Pictor did not ship, on the command line against the demo's dialects on
 * loopback: `models show MODEL --refresh` fetches the published schema and keeps it (then shown
 * without asking the service again, and used by generate's --param); a failure says its sentence and shows the shipped options;
 * `models import-schema FILE --model M` keeps a file's options for the seed's own service, and a
 * hostile file is refused with a sentence.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit } from './cli-harness';
import { useProviderWorlds } from './providers-harness';

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
    const generate = [
      'generate',
      ...world.named,
      '--model',
      'fal-ai/flux/dev',
      '--param',
      'acceleration=high',
      '--prompt',
      'a fox',
      '--dry-run',
    ];
    const before = await world.run(generate, { key: null });
    expectExit(before, 2);
    expect(before.stderr).toMatch(/has no option “acceleration”/);
    const refresh = ['models', 'show', 'fal-ai/flux/dev', '--provider', 'fal', '--refresh'];
    expectExit(await world.run([...refresh, '--base-url', world.service.url]), 0);
    const after = await world.run(generate, { key: null });
    expectExit(after, 0);
    expect(after.stdout).toContain('"acceleration": "high"');
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

describe('models import-schema', () => {
  it('keeps a file’s options for the seed’s own service, and refuses a hostile file', async () => {
    const world = await newWorld('fal');
    const good = join(world.dataDir, '..', 'options.json');
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
    const hostile = join(world.dataDir, '..', 'loop.json');
    const loop = {
      properties: { a: { $ref: '#/components/schemas/A' } },
      components: { schemas: { A: { $ref: '#/components/schemas/A' } } },
    };
    await writeFile(hostile, JSON.stringify(loop));
    const refused = await world.run(['models', 'import-schema', hostile, '--model', 'other']);
    expectExit(refused, 1);
    expect(refused.stderr).toMatch(/The file holds no options Pictor can use/);
  });
});
