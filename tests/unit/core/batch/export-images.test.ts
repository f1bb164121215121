/**
 * A copy of chosen images into a folder that cannot take a file: real images copied into real
 * temporary folders (one that does not exist, a file where the folder should be, a read-only
 * one), and a disk that fills after a few copies (injected where the file system would refuse the
 * next file). The copy stops with a sentence naming the folder, why and how many images were
 * copied before, instead of counting every image as one that "could not be copied"; an image the
 * gallery no longer has is still counted alone and the rest are copied.
 */
import type * as FsPromises from 'node:fs/promises';
import { chmod, readdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { englishText } from '../../../../shared/i18n/sentence';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { exportImages, type ExportOutcome } from '../../../../electron/core/batch/export-images';
import { UserFacingError } from '../../../../electron/core/errors/user-facing-error';
import { resolveInside } from '../../../../electron/core/fs/gallery-path';
import { EXPORT_FOLDER as FOLDER, exportFoldersPerTest, exportedRecord } from './export-fixtures';

/** The injected fault: new files under `under` fail with `code` once `allowed` were created. */
const fault = vi.hoisted(() => ({ code: null as string | null, under: '', allowed: 0 }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  const creates = (flags: unknown) =>
    typeof flags === 'number' && (flags & fs.constants.O_CREAT) !== 0;
  const patched = {
    ...fs,
    open: (path: string, flags?: number | string, mode?: number) => {
      const refused = fault.code !== null && creates(flags) && String(path).startsWith(fault.under);
      if (refused && fault.allowed-- <= 0) {
        return Promise.reject(
          Object.assign(new Error(`${fault.code}: injected`), { code: fault.code }),
        );
      }
      return fs.open(path, flags, mode);
    },
  };
  return { ...patched, default: patched };
});

const IMAGES = 5;

const folders = exportFoldersPerTest(IMAGES);

afterEach(async () => {
  Object.assign(fault, { code: null, under: '', allowed: 0 });
});

const record: TaskRecord = exportedRecord(IMAGES);

function copyInto(folder: string): Promise<ExportOutcome> {
  return exportImages(
    {
      get: (localId) => (localId === record.localId ? record : undefined),
      gallery: { root: folders.root, resolve: (path: string) => resolveInside(folders.root, path) },
    },
    [record.localId],
    folder,
  );
}

/** The copy's stop: its sentence, read in English. */
async function stopOf(copy: Promise<ExportOutcome>): Promise<UserFacingError> {
  const error = await copy.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UserFacingError);
  const stop = error as UserFacingError;
  expect(stop.sentence?.key).toBe('error.library.exportImagesStopped');
  expect(stop.message).toBe(englishText(stop.sentence!));
  return stop;
}

describe('a copy of images into a folder that cannot take a file', () => {
  it('names a folder that does not exist', async () => {
    const gone = join(folders.out, 'unplugged');
    const stop = await stopOf(copyInto(gone));
    expect(stop.sentence?.params).toEqual({
      folder: gone,
      copied: 0,
      problem: 'noFolder',
      code: 'ENOENT',
    });
    expect(stop.message).toBe(
      `Pictor stopped copying images into ${gone} because that folder does not exist (ENOENT). No image was copied there; choose another folder, then export again.`,
    );
    expect(stop.detail).toMatch(/ENOENT/);
  });

  it('names a file where the folder should be, and leaves that file alone', async () => {
    const file = join(folders.out, 'notes.txt');
    await writeFile(file, 'mine');
    const stop = await stopOf(copyInto(file));
    expect(stop.sentence?.params).toMatchObject({ problem: 'notFolder', code: 'ENOTDIR' });
    expect(await readdir(folders.out)).toEqual(['notes.txt']);
  });

  it.skipIf(process.getuid?.() === 0)(
    'names a read-only folder (skipped as root: chmod does not bind root)',
    async () => {
      await chmod(folders.out, 0o500);
      try {
        const stop = await stopOf(copyInto(folders.out));
        expect(stop.sentence?.params).toMatchObject({ problem: 'denied', code: 'EACCES' });
      } finally {
        await chmod(folders.out, 0o700);
      }
      expect(await readdir(folders.out)).toEqual([]);
    },
  );

  it('stops at a disk that fills, saying how many images were copied before (injected)', async () => {
    Object.assign(fault, { code: 'ENOSPC', under: folders.out, allowed: 3 });
    const stop = await stopOf(copyInto(folders.out));
    expect(stop.sentence?.params).toMatchObject({ copied: 3, problem: 'full', code: 'ENOSPC' });
    expect(stop.message).toBe(
      `Pictor stopped copying images into ${folders.out} because the disk is full (no space left) (ENOSPC). 3 images were copied there before that; free some space or choose a folder on another disk, then export again.`,
    );
    expect(await readdir(folders.out)).toHaveLength(3);
  });

  it('still counts alone an image the gallery no longer has, and copies the rest', async () => {
    await unlink(join(folders.root, FOLDER, 'image-2.png'));
    expect(await copyInto(folders.out)).toEqual({ copied: IMAGES - 1, failed: 1, skipped: 0 });
    expect(await readdir(folders.out)).toHaveLength(IMAGES - 1);
  });
});
