/** The export tests' folders, made for every test and removed when it ends. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, onTestFinished } from 'vitest';

/** The task folder, under the gallery's root, that holds the images to export. */
export const EXPORT_FOLDER = '2026/01/2026-01-15_120000_harbour_abcd1234';

/**
 * For every test of the file (or describe block) that calls this: a gallery `root` whose
 * {@link EXPORT_FOLDER} holds `images` stand-ins (`image-1.png`… whose bytes name them, not
 * PNGs), and an empty folder `out` to export into; both removed when the test ends, after the
 * file's own afterEach hooks (vitest's onTestFinished). Read them inside a test.
 */
export function exportFoldersPerTest(images: number): {
  readonly root: string;
  readonly out: string;
} {
  let made: { root: string; out: string } | undefined;
  beforeEach(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pictor-export-'));
    onTestFinished(async () => {
      made = undefined;
      await rm(dir, { recursive: true, force: true });
    });
    const root = join(dir, 'gallery');
    const out = join(dir, 'out');
    await mkdir(join(root, EXPORT_FOLDER), { recursive: true });
    await mkdir(out);
    for (let n = 1; n <= images; n += 1) {
      await writeFile(join(root, EXPORT_FOLDER, `image-${n}.png`), `not really a png ${n}`);
    }
    made = { root, out };
  });
  const now = () => {
    if (made === undefined) throw new Error('exportFoldersPerTest: read its folders inside a test');
    return made;
  };
  return {
    get root() {
      return now().root;
    },
    get out() {
      return now().out;
    },
  };
}
