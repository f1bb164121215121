/**
 * `tasks:removeMany` while the core closes (the window may still ask while the app quits). Asked
 * once the close had begun, the removal ran against a history already closed and answered "could
 * not save to its history database. Check that the disk has free space…" (the disk was fine);
 * and a removal under way when the close began went on while the engine stopped and the history
 * worker ended. Now (core/trash/trash-operations.ts) the core's close refuses every delete,
 * removal and Undo asked from then on with "Pictor is closing", and waits for those asked before
 * while the history is still open: each task an outcome says is removed is gone from the history
 * on disk after the close, and every other one is still there.
 *
 * The real core against the demo service, real tasks in a real history, closed while the
 * removal runs (at its start and after each task) and read again from the file afterwards.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { UserFacingError } from '../../../electron/core/errors';
import { coreAgainstDemo } from '../../integration/core/core-harness';

async function withTasks(count: number) {
  const harness = await coreAgainstDemo({ durationMs: 0 });
  const { core, target } = harness;
  core.engine.start();
  const made = await core.engine.submit({ prompt: 'kept', size: '64x64' }, target, count);
  const ids = made.map((record) => record.localId);
  await core.engine.whenSettled(ids);
  /** The tasks the history file holds now, read by another connection. */
  const onDisk = (): string[] => {
    const store = HistoryStore.open(join(harness.dir, 'data', HISTORY_FILE));
    try {
      return ids.filter((id) => store.get(id) !== undefined);
    } finally {
      store.close();
    }
  };
  return { core, ids, onDisk };
}

describe('removing tasks while the core closes', () => {
  it('asked once the close has begun: refused as “Pictor is closing”, nothing removed', async () => {
    const { core, ids, onDisk } = await withTasks(3);
    const closing = core.close();
    const refused = await core.trash.removeTasks(ids).catch((error: unknown) => error);
    await closing;
    expect(refused).toBeInstanceOf(UserFacingError);
    expect((refused as UserFacingError).sentence?.key).toBe('error.library.closing');
    expect(onDisk()).toEqual(ids);
  });

  it.each([0, 1, 2, 3])(
    'under way when the close begins (after %d of 3 removed): what it says is removed is gone',
    async (after) => {
      const { core, ids, onDisk } = await withTasks(4);
      const asked = ids.slice(0, 3);
      let closing: Promise<void> | undefined;
      const begin = () => (closing ??= core.close());
      if (after === 0) core.trash.onDidProgress(() => void begin());
      else core.trash.onDidProgress((p) => void (p.done >= after && begin()));
      const outcome = await core.trash.removeTasks(asked).then(
        (value) => value,
        (error: unknown) => error,
      );
      await (closing ?? begin());
      expect(outcome).not.toBeInstanceOf(Error);
      const { removed } = outcome as { removed: string[] };
      expect(removed).toEqual(asked);
      expect(onDisk()).toEqual(ids.filter((id) => !removed.includes(id)));
    },
  );
});
