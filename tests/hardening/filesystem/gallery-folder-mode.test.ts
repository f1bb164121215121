/**
 * Who may read the gallery (images, and sidecars that hold prompts) on a machine other users share:
 * a gallery folder Pictor creates, and every folder it makes inside one (year, month, task folder,
 * `.pictor-tmp`, `inputs`), is 0700 whatever the process's umask leaves; a folder the user chose
 * that exists keeps the mode it has. Through the gallery's own start and sidecar write, the input
 * store and a library move, on real folders. POSIX only (Windows has no such modes).
 */
import { chmod, mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Gallery } from '../../../electron/core/gallery/gallery';
import { InputStore } from '../../../electron/core/inputs';
import { relocateGallery } from '../../../electron/core/library/relocate';
import { openLibraryAt } from '../../../electron/core/library/relocate-open';
import { makeRecord } from '../../support/gallery-helpers';
import { makeLibrary } from '../../support/relocate-fixture';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let base: string;

beforeEach(async () => {
  base = await tempFolder('gallery-mode');
});
afterEach(() => removeFolder(base));

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

/** Each folder from `root` (excluded) down to `path` (included). */
function foldersBelow(root: string, path: string): string[] {
  const folders: string[] = [];
  for (let at = path; at !== root; at = dirname(at)) folders.push(at);
  return folders;
}

/** A gallery started on `root`, one task's sidecar written and one input stored. */
async function used(root: string): Promise<string[]> {
  const gallery = new Gallery({ root });
  await gallery.init();
  const record = makeRecord([null]);
  await gallery.writeSidecar(record);
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123' } })
    .png()
    .toBuffer();
  await new InputStore(gallery).put(png);
  const task = gallery.resolve(gallery.folderFor(record));
  return [...foldersBelow(root, task), join(root, '.pictor-tmp'), join(root, 'inputs')];
}

describe.skipIf(process.platform === 'win32')('the gallery folder’s mode', () => {
  it('makes a new gallery folder and every folder in it 0700', async () => {
    const root = join(base, 'home', 'Pictures', 'Pictor');
    const made = await used(root);
    expect(made.length).toBeGreaterThanOrEqual(5);
    expect(await modeOf(root)).toBe(0o700);
    for (const folder of made) expect([folder, await modeOf(folder)]).toEqual([folder, 0o700]);
  });

  it('leaves the mode of a folder the user chose, and makes its own folders in it 0700', async () => {
    const root = join(base, 'Shared');
    await mkdir(root);
    await chmod(root, 0o755);
    const made = await used(root);
    expect(await modeOf(root)).toBe(0o755);
    for (const folder of made) expect([folder, await modeOf(folder)]).toEqual([folder, 0o700]);
  });

  it('makes a move’s new folder and the task folders it carries 0700, and leaves an existing one', async () => {
    const source = join(base, 'home', 'Pictures', 'Pictor');
    const folders = await makeLibrary(source, 2);
    const options = {
      home: join(base, 'home'),
      dataDir: join(base, 'data'),
      platform: 'linux',
    } as const;
    const target = join(base, 'home', 'Elsewhere', 'Gallery');
    await relocateGallery(source, target, options);
    expect(await modeOf(target)).toBe(0o700);
    for (const folder of folders) expect(await modeOf(join(target, folder))).toBe(0o700);

    const chosen = join(base, 'home', 'Chosen');
    await mkdir(chosen);
    await chmod(chosen, 0o755);
    await relocateGallery(target, chosen, options);
    expect(await modeOf(chosen)).toBe(0o755);
    for (const folder of folders) expect(await modeOf(join(chosen, folder))).toBe(0o700);
  });

  it('makes the new folder a library is opened at 0700', async () => {
    const from = join(base, 'home', 'Pictures', 'Pictor');
    await mkdir(from, { recursive: true });
    const to = join(base, 'home', 'Opened', 'Here');
    const switched: string[] = [];
    const options = {
      home: join(base, 'home'),
      dataDir: join(base, 'data'),
      platform: 'linux',
    } as const;
    await openLibraryAt(from, to, { ...options, switchTo: (target) => void switched.push(target) });
    expect(switched).toEqual([to]);
    expect(await modeOf(to)).toBe(0o700);
  });
});
