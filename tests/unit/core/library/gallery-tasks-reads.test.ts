/**
 * A rebuild asks the history which of a batch's tasks it already has in one read a chunk of ids
 * at a time (`getMany`), never one statement per task (relocate-open.ts `importGalleryTasks`),
 * and adds only the others.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGalleryTasks } from '../../../../electron/core/library/relocate-open';
import { taskFiles } from './archive/crafted-export';
import { useLibraries } from './archive/library-fixture';

const library = useLibraries();

describe('a rebuild against the history', () => {
  it("reads which of a batch's tasks it holds in one read, none one by one, and adds the rest", async () => {
    const into = await library();
    const made = await Promise.all(Array.from({ length: 12 }, () => taskFiles()));
    for (const file of made.flatMap((task) => task.files)) {
      const path = join(into.root, ...file.path.split('/'));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.data);
    }
    const known = made.slice(0, 5).map((task) => task.record);
    into.history.putMany(known);
    const reads = { get: 0, getMany: 0, ids: 0 };
    const history = {
      get: (localId: string) => {
        reads.get += 1;
        return into.history.get(localId);
      },
      getMany: (localIds: readonly string[]) => {
        reads.getMany += 1;
        reads.ids += localIds.length;
        return into.history.getMany(localIds);
      },
      putManyCounted: into.history.putManyCounted.bind(into.history),
    };
    const result = await importGalleryTasks({ intake: into.intake, history });
    expect(result).toMatchObject({ found: 12, added: 7, skipped: [] });
    expect(reads).toEqual({ get: 0, getMany: 1, ids: 12 });
    expect(into.history.count()).toBe(12);
    for (const { record } of made) {
      expect(into.history.get(record.localId)?.request.prompt).toBe(record.request.prompt);
    }
  });
});
