/**
 * A request's own options, copied "as command", reach the service as they were: the printed
 * `pictor generate …` line (shared/text/shell-command.ts) run by the CLI sends the same values.
 * A small number is written as JavaScript writes it (`1e-7`), and the CLI refused the line it
 * printed ("takes a number from 0 to 1").
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCommand } from '../../../shared/text/shell-command';
import { expectExit, useCliWorlds } from './cli-harness';
import { describeRun } from './run-cli';

const newWorld = useCliWorlds();

const SCHEMA = {
  type: 'object',
  properties: {
    strength: { type: 'number', minimum: 0, maximum: 1 },
    shift: { type: 'number', minimum: -1, maximum: 1 },
    steps: { type: 'integer', minimum: 1, maximum: 50 },
  },
};

const PARAMS = [
  { strength: 1e-7, shift: -2.5e-7, steps: 4 },
  { strength: 0.25, shift: -0.5, steps: 50 },
  { strength: 5e-324, shift: 1, steps: 1 },
];

describe('options copied as a command', () => {
  it('reach the service as they were, through the CLI', async () => {
    const world = await newWorld({ durationMs: 100 });
    const file = join(world.home, 'house-options.json');
    await writeFile(file, JSON.stringify(SCHEMA));
    expectExit(await world.run(['models', 'import-schema', file, '--model', 'house-model']), 0);
    for (const params of PARAMS) {
      const target = { provider: 'pictor' as const, baseUrl: world.service.baseUrl };
      const line = generateCommand(target, { prompt: 'a heron', model: 'house-model', params });
      // Every word is plain (nothing quoted): the shell's split is the spaces'.
      const [program, ...words] = line.split(' ');
      expect(program).toBe('pictor');
      const run = await world.run(words);
      expectExit(run, 0);
      expect(run.stderr, describeRun(run)).not.toMatch(/takes a/);
    }
    const sent = world.service.submits().map((submit) => {
      const { strength, shift, steps } = JSON.parse(submit.body) as Record<string, unknown>;
      return { strength, shift, steps };
    });
    expect(sent).toEqual(PARAMS);
  });
});
