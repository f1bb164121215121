/**
 * How a task ends badly on each provider, and what the CLI exits with: the README's codes hold
 * for every dialect. A failed task exits 1, a moderated one too and says the service's content
 * rules stopped it; a refused submit (a key the service does not know, an account without
 * credits) exits 6 and nothing was created.
 */
import { describe, expect, it } from 'vitest';
import { expectExit } from './cli-harness';
import { DIALECTS, WRONG_KEY, useProviderWorlds } from './providers-harness';
import { jsonLines } from './run-cli';

const newWorld = useProviderWorlds();

describe.each(DIALECTS)('--provider %s', (dialect) => {
  it('exits 1 for a failed or moderated task, 6 for a refused submit', async () => {
    const world = await newWorld(dialect);
    const generate = (prompt: string, key?: string) =>
      world.run(['generate', ...world.named, '--prompt', prompt, '--json'], { key });

    const wrongKey = await generate('a lighthouse', WRONG_KEY);
    expectExit(wrongKey, 6);
    expect(jsonLines(wrongKey)[0]).toMatchObject({ provider: dialect, status: 'submit_failed' });

    const failed = await generate('this one should fail');
    expectExit(failed, 1);
    expect(jsonLines(failed)[0]).toMatchObject({ status: 'failed', errorKind: 'task_failed' });

    const moderated = await generate('please moderate this');
    expectExit(moderated, 1);
    expect(jsonLines(moderated)[0]).toMatchObject({ status: 'failed', errorKind: 'moderated' });
    expect(moderated.stderr).toMatch(/was stopped by the content rules of .+ \(moderated\)/);

    await world.service.control('credits', { account: 'a', credits: 0 });
    const broke = await generate('a lighthouse');
    expectExit(broke, 6);
    expect(jsonLines(broke)[0]).toMatchObject({ status: 'submit_failed' });

    // Two tasks were created (the failed and the moderated one): the refusals created none.
    expect(await world.service.tasks()).toHaveLength(2);
  });
});
