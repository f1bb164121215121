/**
 * The history worker ends in the middle of a trash write (a delete of images: the worker's
 * transaction open on the first image's record, its thread ended on purpose by the test's gate):
 * that image's delete fails with the history's sentence and nothing of it is half-written (its
 * record still says saved, its files are where they were, nothing of it held in the trash); the
 * other images of the delete go on in a new worker; deleting the image again succeeds; and an
 * Undo brings every image back. The real core, its real worker on the real SQLite file.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HISTORY_FILE, type PictorCore } from '../../../electron/core/pictor-core';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { trashFixture } from '../../support/trash-fixture';
import { coreAgainstDemo, openTestCore } from './core-harness';

let gated: PictorCore | undefined;

afterEach(async () => {
  await gated?.close();
  gated = undefined;
});

/** Resolves once `test` holds, looking on a timer. */
async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('the history worker ended during a delete of images', () => {
  it('fails that image whole, the retry deletes it, and an Undo brings all back', async () => {
    const harness = await coreAgainstDemo({ durationMs: 0 });
    harness.core.engine.start();
    const made = await harness.core.engine.submit(
      { prompt: 'kept', size: '64x64' },
      harness.target,
      3,
    );
    const ids = made.map((record) => record.localId);
    await harness.core.engine.whenSettled(ids);
    await harness.core.close();

    // Cell 0: the worker waits half-way through a write while it is 0; cell 1: it is there;
    // cell 2: it then ends on the spot (taking the 1: only one worker ends).
    const cells = new Int32Array(new SharedArrayBuffer(12));
    const core = await openTestCore(harness.dir, harness.credentials, {
      historyPort: { gate: cells.buffer as SharedArrayBuffer },
    });
    gated = core;
    const images = ids.map((localId) => ({ localId, index: 0 }));
    const files = images.map((ref) =>
      core.gallery.resolve(core.history.get(ref.localId)!.images[0]!.file!),
    );
    expect(files.every((file) => existsSync(file))).toBe(true);
    const { trash } = trashFixture(core, harness.dir);
    const other = HistoryStore.open(join(harness.dir, 'data', HISTORY_FILE));
    const states = () => ids.map((id) => other.get(id)?.images[0]?.state);
    try {
      Atomics.store(cells, 2, 1);
      const first = trash.deleteImages(images);
      await until(() => Atomics.load(cells, 1) === 1);
      // The first image's record is open in the worker's transaction: end the worker there.
      Atomics.store(cells, 0, 1);
      Atomics.notify(cells, 0);
      const outcome = await first;
      expect(outcome.failed).toBe(1);
      expect(String((outcome.problem as Error).message)).toMatch(/could not save to its history/);
      expect(Atomics.load(cells, 2)).toBe(0);
      // The first image whole as it was: its record saved, its files in place; the others deleted.
      expect(states()).toEqual(['saved', 'deleted', 'deleted']);
      expect(files.map((file) => existsSync(file))).toEqual([true, false, false]);
      expect(core.history.get(ids[0]!)?.images[0]?.file).toBe(other.get(ids[0]!)?.images[0]?.file);

      // The retry, in the worker started after it: the image goes to the trash.
      const again = await trash.deleteImages(images.slice(0, 1));
      expect(again.failed).toBe(0);
      expect(states()).toEqual(['deleted', 'deleted', 'deleted']);
      expect(files.some((file) => existsSync(file))).toBe(false);

      // Nothing lost: one Undo of all three brings each image and its record back.
      expect((await trash.restoreImages(images)).failed).toBe(0);
      expect(states()).toEqual(['saved', 'saved', 'saved']);
      expect(files.every((file) => existsSync(file))).toBe(true);
    } finally {
      other.close();
      trash.dispose();
    }
  });
});
