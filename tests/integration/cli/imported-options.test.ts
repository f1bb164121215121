/**
 * Options imported for the seed's own service reach its submit: `models import-schema FILE
 * --model M` keeps a small schema, then `generate --model M --param … --seed …` sends them in the
 * submit body an independent service on loopback receives, and a value outside the imported
 * schema is refused with a sentence and exit 2, nothing sent.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, useCliWorlds } from './cli-harness';
import { describeRun } from './run-cli';

const newWorld = useCliWorlds();

const SCHEMA = {
  type: 'object',
  properties: {
    style: { enum: ['vivid', 'natural'], default: 'vivid' },
    strength: { type: 'number', minimum: 0, maximum: 1 },
    seed: { type: 'integer', minimum: 0, maximum: 99_999 },
  },
};

describe('options imported for the seed’s own service', () => {
  it('are typed by the imported schema and sent in the submit body', async () => {
    const world = await newWorld({ durationMs: 300 });
    const file = join(world.home, 'house-options.json');
    await writeFile(file, JSON.stringify(SCHEMA));
    expectExit(await world.run(['models', 'import-schema', file, '--model', 'house-model']), 0);

    const generate = ['generate', '--model', 'house-model', '--prompt', 'a heron'];
    const wrong = await world.run([...generate, '--param', 'style=loud']);
    expectExit(wrong, 2);
    expect(wrong.stderr).toMatch(/“style” takes one of: vivid, natural/);
    expect(world.service.submits()).toHaveLength(0);

    const run = await world.run([
      ...generate,
      '--param',
      'style=natural',
      '--param',
      'strength=0.25',
      '--seed',
      '4242',
    ]);
    expectExit(run, 0);
    const submits = world.service.submits();
    expect(submits, describeRun(run)).toHaveLength(1);
    expect(JSON.parse(submits[0]!.body)).toEqual({
      model: 'house-model',
      prompt: 'a heron',
      style: 'natural',
      strength: 0.25,
      seed: 4242,
    });
  });
});
