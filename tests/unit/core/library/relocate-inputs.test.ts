/**
 * A gallery move carries the input store (`inputs/`, the images the library's edits were made
 * from, named by digest in their records) with the task folders: every input intact at the new
 * folder, removed from the old once the move switched. What the folder holds besides (a link, a
 * FIFO, another name, a file that no longer hashes to its name, an `inputs` that is a link) is
 * never followed nor carried, stays where it is, and is named as left behind. Real files, real
 * images, the real store on both sides.
 */
import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputStore } from '../../../../electron/core/inputs';
import { relocateGallery, type RelocateOptions } from '../../../../electron/core/library/relocate';
import { makeImage } from '../../../support/gallery-helpers';
import { makeLibrary } from '../../../support/relocate-fixture';
import { fifoMaker, makeFifo } from '../../../support/tools';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

let base: string;
let source: string;
let target: string;
let options: RelocateOptions;
const fifo = fifoMaker();

beforeEach(async () => {
  base = await tempFolder('move-inputs');
  const home = join(base, 'home');
  source = join(home, 'Pictures', 'Pictor');
  target = join(home, 'Elsewhere', 'Gallery');
  await mkdir(source, { recursive: true });
  options = { home, dataDir: join(base, 'data'), platform: 'linux' };
});

afterEach(() => removeFolder(base));

/** Real images put in the store at `root`, with their bytes. */
async function stored(root: string, count: number) {
  await mkdir(root, { recursive: true });
  const store = new InputStore({ root });
  const kinds = ['png', 'webp', 'jpeg'] as const;
  const kept = [];
  for (let n = 0; n < count; n += 1) {
    const bytes = await makeImage(kinds[n % kinds.length]!, 20 + n, 10 + n);
    kept.push({ image: await store.put(bytes), bytes });
  }
  return kept;
}

const inputsOf = (root: string) => readdir(join(root, 'inputs')).catch(() => []);

describe('a move and the input store', () => {
  it('carries every input intact to the new folder and removes it from the old', async () => {
    await makeLibrary(source, 2);
    const kept = await stored(source, 3);
    const result = await relocateGallery(source, target, options);
    expect(result).toEqual({ moved: 2, leftBehind: [] });
    const moved = new InputStore({ root: target });
    for (const { image, bytes } of kept) expect(await moved.read(image)).toEqual(bytes);
    expect(await inputsOf(source), 'nothing left in the old store').toEqual([]);
  });

  it('carries an input kept in the old folder while the move ran, before or after its copy', async () => {
    await makeLibrary(source, 2);
    const during: Awaited<ReturnType<typeof stored>> = [];
    const result = await relocateGallery(source, target, {
      ...options,
      // An edit's input kept while a task folder is copied, and another right before the switch.
      faults: { beforeCopy: async () => void during.push(...(await stored(source, 1))) },
      switchTo: async () => void during.push(...(await stored(source, 1))),
    });
    expect(result.leftBehind).toEqual([]);
    expect(during).toHaveLength(3);
    const moved = new InputStore({ root: target });
    for (const { image, bytes } of during) expect(await moved.read(image)).toEqual(bytes);
    expect(await inputsOf(source)).toEqual([]);
  });

  it('carries an input the new folder already holds once, and keeps the one it has', async () => {
    const [kept] = await stored(source, 1);
    await stored(target, 1);
    const result = await relocateGallery(source, target, options);
    expect(result.leftBehind).toEqual([]);
    expect(await new InputStore({ root: target }).read(kept!.image)).toEqual(kept!.bytes);
    expect(await inputsOf(source)).toEqual([]);
  });

  it('never follows nor carries a link, a FIFO, another name or a file that no longer matches its name', async () => {
    const [good] = await stored(source, 1);
    const store = join(source, 'inputs');
    // An image outside the library, linked under a name the store would give it.
    const outsideBytes = await makeImage('png', 9, 9);
    const outside = join(base, 'outside.png');
    await writeFile(outside, outsideBytes);
    const [linked] = await stored(join(base, 'elsewhere'), 1);
    const linkName = `${linked!.image.sha256}.png`;
    await symlink(outside, join(store, linkName));
    // A file whose bytes are not the ones its name says.
    const changedName = `${'a'.repeat(64)}.png`;
    await writeFile(join(store, changedName), await makeImage('png', 5, 5));
    await writeFile(join(store, 'notes.txt'), 'the user’s notes');
    const strays = [linkName, changedName, 'notes.txt'];
    if (fifo.path) {
      const fifoName = `${'b'.repeat(64)}.webp`;
      makeFifo(fifo, join(store, fifoName));
      strays.push(fifoName);
    }

    const result = await relocateGallery(source, target, options);

    expect(await inputsOf(target)).toEqual([`${good!.image.sha256}.png`]);
    expect([...result.leftBehind].sort()).toEqual(strays.map((name) => join(store, name)).sort());
    expect((await inputsOf(source)).sort()).toEqual([...strays].sort());
    expect(await readFile(outside)).toEqual(outsideBytes);
  });

  it('never follows an inputs folder that is a link, nor removes what it leads to', async () => {
    const elsewhere = join(base, 'elsewhere');
    const [outside] = await stored(elsewhere, 1);
    await symlink(join(elsewhere, 'inputs'), join(source, 'inputs'));
    const result = await relocateGallery(source, target, options);
    expect(await inputsOf(target)).toEqual([]);
    expect(result.leftBehind).toEqual([join(source, 'inputs')]);
    expect(await new InputStore({ root: elsewhere }).read(outside!.image)).toEqual(outside!.bytes);
  });
});
