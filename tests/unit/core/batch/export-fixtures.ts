/** The export tests' folders, made for every test and removed when it ends. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { fieldsOf, perTest } from '../../../support/per-test';
import { makeTaskRecord } from '../../../support/task-records';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

/** The task folder, under the gallery's root, that holds the images to export. */
export const EXPORT_FOLDER = '2026/01/2026-01-15_120000_harbour_abcd1234';

/** The task whose `images` saved images ({@link EXPORT_FOLDER}'s `image-N.png`) the tests copy. */
export function exportedRecord(images: number): TaskRecord {
  return makeTaskRecord({
    localId: 'harbour',
    folder: EXPORT_FOLDER,
    images: Array.from({ length: images }, (_, n) => ({
      index: n,
      url: null,
      state: 'saved' as const,
      attempts: 1,
      favourite: false,
      file: `${EXPORT_FOLDER}/image-${n + 1}.png`,
    })),
  });
}

/**
 * For every test of the file (or describe block) that calls this: a gallery `root` whose
 * {@link EXPORT_FOLDER} holds `images` stand-ins (`image-1.png`… whose bytes name them, not
 * PNGs), and an empty folder `out` to export into; both removed when the test ends, after the
 * file's own afterEach hooks (tests/support/per-test.ts). Read them inside a test.
 */
export function exportFoldersPerTest(images: number): {
  readonly root: string;
  readonly out: string;
} {
  const made = perTest(
    'exportFoldersPerTest',
    async () => {
      const dir = await tempFolder('export');
      return { dir, root: join(dir, 'gallery'), out: join(dir, 'out') };
    },
    ({ dir }) => removeFolder(dir),
  );
  beforeEach(async () => {
    const { root, out } = made();
    await mkdir(join(root, EXPORT_FOLDER), { recursive: true });
    await mkdir(out);
    for (let n = 1; n <= images; n += 1) {
      await writeFile(join(root, EXPORT_FOLDER, `image-${n}.png`), `not really a png ${n}`);
    }
  });
  return fieldsOf(made, ['root', 'out']);
}
