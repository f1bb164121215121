/**
 * Usage errors: exit 2 with a sentence, and nothing sent to the service.
 */
import { describe, expect, it } from 'vitest';
import { expectExit, useCliWorlds, type CliWorld } from './cli-harness';
import type { CliRun } from './run-cli';

// Real processes: a usage error is the process's exit code and stderr (see generate.test.ts).
const newWorld = useCliWorlds({ process: true });

function expectUsageError(world: CliWorld, run: CliRun, about: RegExp): void {
  expectExit(run, 2);
  const message = run.stderr.trim();
  expect(message.split(/\s+/).length, `a sentence, got: ${message}`).toBeGreaterThanOrEqual(3);
  expect(message, 'no stack trace').not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(message).toMatch(about);
  expect(run.stdout.trim()).toBe('');
  expect(world.service.log, 'nothing was sent to the service').toEqual([]);
}

describe('pictor usage errors', () => {
  it('an unknown command', async () => {
    const world = await newWorld();
    const run = await world.run(['frobnicate', '--prompt', 'x']);
    expectUsageError(world, run, /frobnicate|command/i);
  });

  it('generate without --prompt', async () => {
    const world = await newWorld();
    expectUsageError(world, await world.run(['generate']), /prompt/i);
  });

  it('generate with a --size that is not WIDTHxHEIGHT', async () => {
    const world = await newWorld();
    for (const size of ['big', '0x512', '512']) {
      const run = await world.run(['generate', '--prompt', 'x', '--size', size]);
      expectUsageError(world, run, /size/i);
    }
  });

  it('generate without SERVICE_API_KEY', async () => {
    const world = await newWorld();
    const run = await world.run(['generate', '--prompt', 'x'], { key: null });
    expectUsageError(world, run, /SERVICE_API_KEY/);
  });
});
