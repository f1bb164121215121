/**
 * The trash follows the library whoever moves it: a move asked of the core's `library` alone
 * (as the CLI or any other caller would, with no app wiring around it) first sends what the trash
 * holds for Undo to the system trash from the old folder, then moves, as the app's own moves do.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRASH_DIR } from '../../../electron/core/trash/gallery-trash';
import { trashFixture } from '../../support/trash-fixture';
import { coreAgainstDemo } from './core-harness';

async function coreWithHeldImage() {
  const harness = await coreAgainstDemo({ durationMs: 0 });
  harness.core.engine.start();
  const [record] = await harness.core.engine.submit(
    { prompt: 'held', size: '64x64' },
    harness.target,
  );
  const [done] = await harness.core.engine.whenSettled([record!.localId]);
  expect(done).toMatchObject({ status: 'completed' });
  const images = [{ localId: record!.localId, index: 0 }];
  return { ...harness, images };
}

describe("a library move through the core's library alone", () => {
  it('sends the images held for Undo to the system trash from the old folder first', async () => {
    const { core, dir, images } = await coreWithHeldImage();
    const { trash, systemTrashed } = trashFixture(core, dir);
    expect((await trash.deleteImages(images)).failed).toBe(0);
    const oldRoot = core.gallery.root;
    expect(systemTrashed).toEqual([]);

    const target = join(dir, 'Moved');
    await core.library.moveTo(target);

    expect(core.gallery.root).toBe(target);
    expect(systemTrashed).toHaveLength(1);
    expect(systemTrashed[0]!.startsWith(join(oldRoot, TRASH_DIR))).toBe(true);
    expect(existsSync(systemTrashed[0]!)).toBe(false);
    // Nothing is held any more: an Undo after the move has nothing to bring back.
    expect(trash.holdsImage(images[0]!)).toBe(false);
    trash.dispose();
  });

  it('leaves the trash alone once it is disposed', async () => {
    const { core, dir, images } = await coreWithHeldImage();
    const { trash, systemTrashed } = trashFixture(core, dir);
    expect((await trash.deleteImages(images)).failed).toBe(0);
    trash.dispose();
    await core.library.moveTo(join(dir, 'Moved'));
    expect(systemTrashed).toEqual([]);
    expect(trash.holdsImage(images[0]!)).toBe(true);
  });
});
