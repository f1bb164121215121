/**
 * A settled task is on disk: `whenSettled` (what the CLI and the bench wait on) resolves only once
 * the task's last sidecar write, asked for by the change that settled it, has landed. Before, it
 * resolved at that change, and the write (its record read by the history worker first) landed
 * later: a folder removed at once was made again or filled while it was being removed (the
 * bench's ENOTEMPTY), and a `pictor.json` read at once still said the image was pending.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIDECAR_NAME } from '../../../electron/core/gallery/gallery-layout';
import type { Sidecar } from '../../../electron/core/gallery/sidecar';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { trashFixture } from '../../support/trash-fixture';
import { coreAgainstDemo, DONE_AT_FIRST_POLL } from './core-harness';

const TASKS = 4;

async function settledTasks() {
  const harness = await coreAgainstDemo(DONE_AT_FIRST_POLL);
  const { core } = harness;
  core.engine.start();
  const records = await core.engine.submit(
    { prompt: 'on disk', size: '64x64' },
    harness.target,
    TASKS,
  );
  const folderOf = (record: TaskRecord) => join(core.gallery.root, record.folder ?? 'none');
  return { ...harness, ids: records.map((record) => record.localId), folderOf };
}

describe('a settled task', { timeout: 60_000 }, () => {
  it('has its final sidecar on disk when whenSettled resolves', async () => {
    const { core, ids, folderOf } = await settledTasks();
    // Read in the same turn as the resolution: no write can land in between.
    const onDisk = await core.engine.whenSettled(ids).then((done) =>
      done.map((record) => {
        const text = readFileSync(join(folderOf(record), SIDECAR_NAME), 'utf8');
        return (JSON.parse(text) as Sidecar).record.images.map((image) => image.state);
      }),
    );
    expect(onDisk).toEqual(ids.map(() => ['saved']));
  });

  it('removed and its folder deleted at once, leaves no folder and no error', async () => {
    const { core, dir, ids, folderOf } = await settledTasks();
    const { trash } = trashFixture(core, dir);
    const done = await core.engine.whenSettled(ids).then((settled) => {
      // As the bench and a user's script do: the folders go the moment the tasks are settled.
      for (const record of settled) rmSync(folderOf(record), { recursive: true });
      return settled;
    });
    expect(done.map((record) => record.images[0]?.state)).toEqual(ids.map(() => 'saved'));
    expect((await trash.removeTasks(ids)).removed).toEqual(ids);
    // Every write still asked for lands now.
    await core.close();
    expect(done.filter((record) => existsSync(folderOf(record)))).toEqual([]);
    trash.dispose();
  });
});
