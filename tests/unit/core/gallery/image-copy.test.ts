/**
 * Save as's copy (core/gallery/image-copy.ts), the core's since its dialog alone is the shell's
 * (electron/adapters/shell-actions.ts `chooseSaveAsFile`): the image's bytes in the chosen file,
 * that file replaced whole or not at all, a place that cannot take it named with why, and a task
 * folder swapped for a link around each call never leading the copy outside the gallery.
 */
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { scriptSwaps } from '../../../support/scripted-swaps';
import { clearPartFaults, partFaults as fault } from '../../../support/part-file-faults';
import { fileFolder } from '../../../support/per-test';

// Faults a real folder cannot be made to give here, on the `.part` file Save As writes beside
// the chosen file (a disk that fills mid-copy, a write not allowed as root).
vi.mock('node:fs/promises', async (original) =>
  (await import('../../../support/part-file-faults')).withPartFaults(await original()),
);

const { saveImageCopy } = await import('../../../../electron/core/gallery');

let root: string;
let png: string;

const base = fileFolder('image-copy', async (folder) => {
  root = join(folder, 'gallery');
  await mkdir(join(root, 'task'), { recursive: true });
  png = join(root, 'task', 'image-1.png');
  await sharp({
    create: { width: 400, height: 300, channels: 3, background: { r: 200, g: 40, b: 40 } },
  })
    .png()
    .toFile(png);
});

beforeEach(() => {
  clearPartFaults();
});

describe('a copy saved where the user chose', () => {
  it('holds the image’s bytes', async () => {
    const target = join(base(), 'saved-copy.png');
    await saveImageCopy(root, png, target);
    expect((await readFile(target)).equals(await readFile(png))).toBe(true);
  });

  it('saving onto the image itself leaves it whole', async () => {
    const before = await readFile(png);
    await saveImageCopy(root, png, png);
    expect((await readFile(png)).equals(before)).toBe(true);
  });

  it('replaces a file the user agreed to overwrite, and leaves nothing beside it', async () => {
    const folder = await mkdtemp(join(base(), 'save-'));
    const target = join(folder, 'fox.png');
    await writeFile(target, 'last week’s fox');
    await saveImageCopy(root, png, target);
    expect((await readFile(target)).equals(await readFile(png))).toBe(true);
    expect(await readdir(folder)).toEqual(['fox.png']);
  });
});

describe('a copy to a place that cannot take the file', () => {
  /** The copy into `target`: what it threw (the file not saved there, and why). */
  async function saveInto(target: string) {
    const thrown = await saveImageCopy(root, png, target).then(
      () => null,
      (error: unknown) => error,
    );
    expect(thrown).toMatchObject({
      code: 'failed',
      sentence: { key: 'error.library.fileNotSaved' },
    });
    return thrown as { message: string; detail?: string; sentence?: { params?: object } };
  }

  it('a folder that does not exist: the file and why', async () => {
    const target = join(base(), 'no', 'such', 'folder', 'x.png');
    const error = await saveInto(target);
    expect(error.message).toBe(
      `Pictor could not save the file ${target} because its folder does not exist (ENOENT). Nothing was changed there; choose another folder, then try again.`,
    );
    expect(error.detail).toMatch(/ENOENT/);
  });

  it('a file where the folder should be: that file left alone', async () => {
    const folder = await mkdtemp(join(base(), 'save-'));
    await writeFile(join(folder, 'notes.txt'), 'mine');
    const error = await saveInto(join(folder, 'notes.txt', 'x.png'));
    expect(error.sentence?.params).toMatchObject({ problem: 'notFolder', code: 'ENOTDIR' });
    expect(await readdir(folder)).toEqual(['notes.txt']);
    expect(await readFile(join(folder, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('a name too long: nothing made there', async () => {
    const folder = await mkdtemp(join(base(), 'save-'));
    const error = await saveInto(join(folder, `${'a'.repeat(252)}.png`));
    expect(error.message).toContain(
      'because its name is too long (ENAMETOOLONG). Nothing was changed there; choose a shorter name',
    );
    expect(await readdir(folder)).toEqual([]);
  });

  it('a disk that fills mid-copy: the file it would replace byte for byte, no temporary left', async () => {
    const folder = await mkdtemp(join(base(), 'save-'));
    const target = join(folder, 'fox.png');
    const before = Buffer.from('last week’s fox, which the user agreed to overwrite');
    await writeFile(target, before);
    fault.write = { code: 'ENOSPC', after: 100 };
    const error = await saveInto(target);
    expect(error.sentence?.params).toEqual({ file: target, problem: 'full', code: 'ENOSPC' });
    expect(error.message).toBe(
      `Pictor could not save the file ${target} because the disk is full (no space left) (ENOSPC). Nothing was changed there; free some space or choose a folder on another disk, then try again.`,
    );
    expect((await readFile(target)).equals(before)).toBe(true);
    expect(await readdir(folder)).toEqual(['fox.png']);
  });

  it.each([
    ['not allowed (as root chmod binds nothing, so injected)', 'EACCES', 'denied'],
    ['a read-only disk', 'EROFS', 'readOnly'],
  ])('%s: why, and nothing made there', async (_name, code, problem) => {
    const folder = await mkdtemp(join(base(), 'save-'));
    fault.create = code;
    const error = await saveInto(join(folder, 'fox.png'));
    expect(error.sentence?.params).toMatchObject({ problem, code });
    expect(await readdir(folder)).toEqual([]);
  });
});

describe('a task folder swapped for a link around each call (the attacker who sees every call)', () => {
  it('never copies the outside image', async () => {
    // The task's layout outside the gallery, holding a private image of its own.
    const twin = join(base(), 'outside-task');
    await mkdir(twin, { recursive: true });
    const secret = await sharp({
      create: { width: 41, height: 23, channels: 3, background: { r: 1, g: 2, b: 250 } },
    })
      .png()
      .toBuffer();
    await writeFile(join(twin, 'image-1.png'), secret);
    const target = join(base(), 'saved-while-swapped.png');
    const swaps = scriptSwaps(join(root, 'task'), twin);
    try {
      await saveImageCopy(root, png, target).catch(() => undefined);
    } finally {
      await swaps.restore();
    }
    expect(swaps.linked()).toBeGreaterThan(0);
    const saved = await readFile(target).catch(() => Buffer.alloc(0));
    expect(saved.includes(secret.subarray(33, secret.length - 12))).toBe(false);
  });
});
