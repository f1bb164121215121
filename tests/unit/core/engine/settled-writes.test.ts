/**
 * A settled task's last sidecar write is part of it: `whenSettled` waits for it, a bounded time
 * (a write that fails counts as done; one that hangs is left after SIDECAR_WAIT_MS, so the CLI
 * never waits forever), and removing the task at the moment it completes waits for that write, so
 * nothing of the task is written after its removal.
 */
import { describe, expect, it, vi } from 'vitest';
import { SIDECAR_WAIT_MS } from '../../../../electron/core/engine/sidecar-writer';
import { TrashJournal } from '../../../../electron/core/trash/trash-journal';
import {
  TrashOperations,
  type TrashEngine,
} from '../../../../electron/core/trash/trash-operations';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { TARGET, engineHarness } from './engine-harness';

import { UNTIL } from '../../../support/waits';
import { testFolder } from '../../../support/per-test';

// The trash journal's folder (the trash fixture's set): removed after each test, as the trash's
// own tests do; nothing removed it here, and every run left a pictor-journal-* behind.

type LastWrite = 'held' | 'hangs' | 'fails';

/**
 * An engine whose task's last sidecar write (the one asked for once its image is saved) is held
 * until `release`, never answers, or fails.
 */
async function taskWithLastWrite(last: LastWrite) {
  const h = engineHarness();
  const held: (() => void)[] = [];
  const write = h.gallery.writeSidecar.bind(h.gallery);
  h.gallery.writeSidecar = async (record: TaskRecord) => {
    if (record.images[0]?.state !== 'saved') return write(record);
    if (last === 'fails') throw new Error('The disk is full.');
    await new Promise<void>((resolve) => last === 'held' && held.push(resolve));
    return write(record);
  };
  const [record] = await h.engine.submit({ prompt: 'last write' }, TARGET);
  const localId = record!.localId;
  const waited = { done: false };
  const settled = h.engine.whenSettled([localId]).then((records) => {
    waited.done = true;
    return records;
  });
  return { ...h, localId, held, settled, waited };
}

const savedOnDisk = (sidecars: readonly TaskRecord[]) =>
  sidecars.some((record) => record.images[0]?.state === 'saved');

describe("a settled task's last sidecar write", () => {
  it('is waited for by whenSettled', async () => {
    const t = await taskWithLastWrite('held');
    await t.clock.advance(12_000);
    expect(t.held).toHaveLength(1);
    expect(t.waited.done).toBe(false);
    t.held[0]!();
    const [done] = await t.settled;
    expect(done!.images[0]!.state).toBe('saved');
    expect(savedOnDisk(t.gallery.sidecars)).toBe(true);
  });

  it('counts as done when it fails', async () => {
    const t = await taskWithLastWrite('fails');
    await t.clock.advance(12_000);
    expect(t.waited.done).toBe(true);
    expect((await t.settled)[0]!.images[0]!.state).toBe('saved');
  });

  it('is no longer waited for once it has hung for SIDECAR_WAIT_MS', async () => {
    const t = await taskWithLastWrite('hangs');
    await t.clock.advance(12_000);
    expect(t.waited.done).toBe(false);
    await t.clock.advance(SIDECAR_WAIT_MS);
    expect(t.waited.done).toBe(true);
  });

  it('lands before a removal asked at the moment the task completed', async () => {
    const t = await taskWithLastWrite('held');
    const state = { waiting: false, removed: false };
    const engine: TrashEngine = {
      get: (localId) => t.engine.get(localId),
      editImageFiles: (ref, patch) => t.engine.editImageFiles(ref, patch),
      remove: (localId) => t.engine.remove(localId),
      reinstate: (record) => t.engine.reinstate(record),
      whenWritten: (localIds) => {
        state.waiting = true;
        return t.engine.whenWritten(localIds);
      },
    };
    const trash = new TrashOperations({
      journal: new TrashJournal(await testFolder('journal')),
      core: { engine, gallery: { root: '/no-gallery', resolve: (path) => path } },
      clock: t.clock,
      sendToSystemTrash: () => Promise.reject(new Error('no files here')),
    });
    let removal: Promise<string[]> | undefined;
    t.engine.onDidUpdate(({ record }) => {
      if (record.images[0]?.state !== 'saved') return;
      removal ??= trash.removeTasks([t.localId]).then(({ removed }) => {
        state.removed = true;
        return removed;
      });
    });
    await t.clock.advance(12_000);
    expect(t.held).toHaveLength(1);
    await vi.waitFor(() => expect(state.waiting || state.removed).toBe(true), UNTIL);
    // The removal waits for the write under way: the task is still in the history.
    expect(t.history.get(t.localId)).toBeDefined();
    t.held[0]!();
    expect(await removal).toEqual([t.localId]);
    expect(t.history.get(t.localId)).toBeUndefined();
    expect(savedOnDisk(t.gallery.sidecars)).toBe(true);
  });
});
