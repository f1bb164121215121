/**
 * `generate --provider <id>` against the demo service speaking that provider's dialect: the
 * image is saved, the provider's default model is asked for when --model is not given, the key
 * goes only in that dialect's header to that origin, and `list` shows and filters the provider.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../../shared/domain/providers';
import { expectExit } from './cli-harness';
import {
  DIALECTS,
  expectKeyOnlyInDialectHeader,
  providersOf,
  useProviderWorlds,
} from './providers-harness';
import { jsonLines } from './run-cli';

const newWorld = useProviderWorlds();
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe.each(DIALECTS)('generate --provider %s', (dialect) => {
  it('saves the image, asks for the default model, sends the key only in its header', async () => {
    const world = await newWorld(dialect);
    const run = await world.run(['generate', ...world.named, '--prompt', 'a lighthouse', '--json']);
    expectExit(run, 0);
    const [task] = jsonLines(run);
    expect(task).toMatchObject({ provider: dialect, status: 'completed', exitCode: 0 });
    const path = task!.images[0]!.path!;
    expect((await readFile(path)).subarray(0, 8)).toEqual(PNG_SIGNATURE);

    const [made] = await world.service.tasks();
    expect(made?.model).toBe(PROVIDERS[dialect].defaultModel);
    const log = await world.service.log();
    expect(log.submits).toHaveLength(1);
    expect(log.downloads.length).toBeGreaterThan(0);
    expectKeyOnlyInDialectHeader(dialect, log);

    const mine = await world.run(['list', '--json', '--provider', dialect]);
    expect(providersOf(mine)).toEqual([dialect]);
    const others = await world.run(['list', '--json', '--provider', 'pictor']);
    expectExit(others, 0);
    expect(others.stdout).toBe('');
  });
});
