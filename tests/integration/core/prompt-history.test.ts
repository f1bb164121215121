/**
 * The prompt history outlives what the trash removes: deleting a task's images, removing the task
 * and emptying the trash leave its prompt, and a library rebuilt into a fresh history starts its
 * prompt history from the tasks it finds. The real core against the demo service on loopback.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { coreAgainstDemo } from './core-harness';

async function submitted(harness: Awaited<ReturnType<typeof coreAgainstDemo>>, prompt: string) {
  const [record] = await harness.core.engine.submit({ prompt, size: '64x64' }, harness.target);
  const [done] = await harness.core.engine.whenSettled([record!.localId]);
  expect(done).toMatchObject({ status: 'completed' });
  return done!;
}

describe('what a submit notes', () => {
  it('notes every prompt a batch of several sent, each once, and one prompt sent thrice once', async () => {
    const harness = await coreAgainstDemo({ durationMs: 0 });
    const { core } = harness;
    core.engine.start();
    const requests = ['a fox at dawn', 'a fox at dusk', 'an owl at dawn'].map((prompt) => ({
      prompt,
      size: '64x64',
    }));
    const batch = await core.engine.submitBatch({ requests, count: 2 }, harness.target);
    expect(batch).toHaveLength(6);
    const same = await core.engine.submit(
      { prompt: 'one prompt', size: '64x64' },
      harness.target,
      3,
    );
    await core.engine.whenSettled([...batch, ...same].map((record) => record.localId));
    const entries = core.history.prompts.list('', 10);
    expect(entries.map((e) => e.prompt).sort()).toEqual([
      'a fox at dawn',
      'a fox at dusk',
      'an owl at dawn',
      'one prompt',
    ]);
    expect(entries.every((entry) => entry.uses === 1)).toBe(true);
  });
});

describe('the prompt history and the trash', () => {
  it('keeps a prompt whose images were deleted and whose task was removed', async () => {
    const harness = await coreAgainstDemo({ durationMs: 0 });
    const { core } = harness;
    core.engine.start();
    const first = await submitted(harness, 'deleted images, kept prompt');
    const second = await submitted(harness, 'removed task, kept prompt');
    expect((await core.trash.deleteImages([{ localId: first.localId, index: 0 }])).failed).toBe(0);
    await core.trash.removeTasks([first.localId, second.localId]);
    await core.trash.empty();
    expect(core.history.get(first.localId)).toBeUndefined();
    expect(core.history.get(second.localId)).toBeUndefined();
    expect(core.history.prompts.list('', 10).map((e) => e.prompt)).toEqual([
      'removed task, kept prompt',
      'deleted images, kept prompt',
    ]);
  });

  it('starts from the rebuilt tasks when the history file is made again', async () => {
    const harness = await coreAgainstDemo({ durationMs: 0 });
    harness.core.engine.start();
    await submitted(harness, 'found again by rebuild');
    await harness.core.close();
    await rm(join(harness.dir, 'data', HISTORY_FILE));
    const core = await harness.open();
    try {
      expect(core.history.prompts.list('', 10)).toEqual([]);
      await core.operations.rebuild();
      expect(core.history.prompts.list('', 10).map((e) => e.prompt)).toEqual([
        'found again by rebuild',
      ]);
    } finally {
      await core.close();
    }
  });
});
