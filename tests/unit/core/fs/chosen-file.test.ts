/**
 * A file the user chose in a save dialog (an image's "Save as…", the cost ledger's CSV, a
 * templates export) replaced whole or not at all: written beside it and renamed over it, so a
 * failure mid-write leaves the file the user had; from text chunks and byte chunks too, each asked
 * for once the one before is written. When the chosen place cannot take the file, on real
 * temporary folders (a folder that does not exist, a file where the folder should be, a name too
 * long, a read-only folder) and with the faults a real folder cannot be made to give here
 * injected where the file system would give them (a disk that fills mid-write, a read-only disk,
 * a quota hit at the sync, a rename refused, a write not allowed: this suite runs as root, where
 * chmod binds nothing), it ends with the sentence naming the file and why, never a raw
 * file-system error, no `.part` file left and the file that was there byte for byte as it was.
 */
import { chmod, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { englishText } from '../../../../shared/i18n/sentence';
import {
  ChosenFileNotSavedError,
  replaceFileBeside,
} from '../../../../electron/core/fs/chosen-file';
import { clearPartFaults, partFaults as fault } from '../../../support/part-file-faults';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

vi.mock('node:fs/promises', async (original) =>
  (await import('../../../support/part-file-faults')).withPartFaults(await original()),
);

let dir = '';
beforeEach(async () => {
  dir = await tempFolder('replace');
});
afterEach(async () => {
  clearPartFaults();
  await removeFolder(dir);
});

/** The refusal `saving` ends with: its sentence, and its English words. */
async function refusalOf(saving: Promise<unknown>): Promise<ChosenFileNotSavedError> {
  const error = await saving.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ChosenFileNotSavedError);
  const refusal = error as ChosenFileNotSavedError;
  expect(refusal.sentence?.key).toBe('error.library.fileNotSaved');
  expect(refusal.message).toBe(englishText(refusal.sentence!));
  expect(refusal.code).toBe('failed');
  return refusal;
}

/** Chunks of bytes, as an image's copy reads them. */
async function* byteChunks(...chunks: string[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield Buffer.from(chunk, 'latin1');
}

describe('replaceFileBeside', () => {
  it('replaces the file whole and leaves nothing beside it', async () => {
    const target = join(dir, 'pictor-costs.csv');
    await writeFile(target, 'the old export');
    await replaceFileBeside(target, 'a,b\r\n1,2\r\n');
    expect(await readFile(target, 'utf8')).toBe('a,b\r\n1,2\r\n');
    expect(await readdir(dir)).toEqual(['pictor-costs.csv']);
  });

  it('writes byte chunks one after the other', async () => {
    const target = join(dir, 'fox.png');
    await replaceFileBeside(target, byteChunks('\x89PNG', '-middle-', 'IEND'));
    expect(await readFile(target, 'latin1')).toBe('\x89PNG-middle-IEND');
    expect(await readdir(dir)).toEqual(['fox.png']);
  });

  it.each([
    ['0600', 0o600],
    ['0640', 0o640],
    ['0664', 0o664],
  ])(
    'keeps the permissions (%s) of the file it replaces, and the new bytes are never readable by others on the way',
    async (_, mode) => {
      const target = join(dir, 'private.csv');
      await writeFile(target, 'the old export');
      await chmod(target, mode);
      const partModes: number[] = [];
      async function* watched(): AsyncGenerator<Uint8Array> {
        for (const name of await readdir(dir)) {
          if (name.endsWith('.part')) partModes.push((await stat(join(dir, name))).mode & 0o777);
        }
        yield Buffer.from('a,b\r\n');
      }
      await replaceFileBeside(target, watched());
      expect(await readFile(target, 'utf8')).toBe('a,b\r\n');
      expect((await stat(target)).mode & 0o7777).toBe(mode);
      // Before its first byte the new file has the old one's permissions.
      expect(partModes).toEqual([mode]);
      expect(await readdir(dir)).toEqual(['private.csv']);
    },
  );

  it('gives a new file the usual permissions (0644 less the umask)', async () => {
    const target = join(dir, 'new.csv');
    const reference = join(dir, 'reference');
    await writeFile(reference, '', { mode: 0o644 });
    await replaceFileBeside(target, 'x');
    expect((await stat(target)).mode & 0o777).toBe((await stat(reference)).mode & 0o777);
  });

  it('leaves what was there and no part file when the new one cannot be put in its place', async () => {
    // A folder with a file in it where the file goes: the write beside it succeeds, the rename
    // over it fails.
    const target = join(dir, 'pictor-costs.csv');
    await mkdir(target);
    await writeFile(join(target, 'inside'), 'kept');
    const refusal = await refusalOf(replaceFileBeside(target, 'a,b\r\n'));
    expect(refusal.sentence?.params).toEqual({ file: target, problem: 'code', code: 'EISDIR' });
    expect(await readdir(dir)).toEqual(['pictor-costs.csv']);
    expect(await readFile(join(target, 'inside'), 'utf8')).toBe('kept');
  });

  it('writes text chunks one after the other, and keeps the old file when producing one fails', async () => {
    const target = join(dir, 'pictor-costs.csv');
    await writeFile(target, 'the old export');
    const asked: string[] = [];
    function* pages(fail: boolean): Generator<string> {
      for (const page of ['header\r\n', 'a,1\r\n', 'b,2\r\n']) {
        asked.push(page);
        if (fail && page.startsWith('b')) throw new Error('the history closed');
        yield page;
      }
    }
    // The data's own failure is passed on as it is: the chosen place is not its cause.
    const failed = await replaceFileBeside(target, pages(true)).catch((error: unknown) => error);
    expect(failed).not.toBeInstanceOf(ChosenFileNotSavedError);
    expect(failed).toEqual(new Error('the history closed'));
    expect(await readFile(target, 'utf8')).toBe('the old export');
    expect(await readdir(dir)).toEqual(['pictor-costs.csv']);
    await replaceFileBeside(target, pages(false));
    expect(await readFile(target, 'utf8')).toBe('header\r\na,1\r\nb,2\r\n');
    expect(asked).toHaveLength(6);
  });
});

describe('a chosen file whose place cannot take it', () => {
  it('names a folder that does not exist, and creates nothing', async () => {
    const target = join(dir, 'gone', 'pictor-costs.csv');
    const refusal = await refusalOf(replaceFileBeside(target, 'a,b\r\n'));
    expect(refusal.sentence?.params).toEqual({ file: target, problem: 'noFolder', code: 'ENOENT' });
    expect(refusal.message).toBe(
      `Pictor could not save the file ${target} because its folder does not exist (ENOENT). Nothing was changed there; choose another folder, then try again.`,
    );
    expect(refusal.detail).toMatch(/ENOENT/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('names a file where the folder should be, and leaves that file alone', async () => {
    await writeFile(join(dir, 'notes.txt'), 'mine');
    const target = join(dir, 'notes.txt', 'fox.png');
    const refusal = await refusalOf(replaceFileBeside(target, byteChunks('png')));
    expect(refusal.sentence?.params).toMatchObject({ problem: 'notFolder', code: 'ENOTDIR' });
    expect(refusal.message).toBe(
      `Pictor could not save the file ${target} because part of its path is a file, not a folder (ENOTDIR). Nothing was changed there; choose another folder, then try again.`,
    );
    expect(await readdir(dir)).toEqual(['notes.txt']);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('names a file name too long for the folder, and takes one as long as it allows', async () => {
    const tooLong = join(dir, `${'a'.repeat(252)}.csv`);
    const refusal = await refusalOf(replaceFileBeside(tooLong, 'a,b\r\n'));
    expect(refusal.sentence?.params).toMatchObject({ problem: 'nameTooLong' });
    expect(refusal.message).toContain(
      'because its name is too long (ENAMETOOLONG). Nothing was changed there; choose a shorter name or another folder, then try again.',
    );
    expect(await readdir(dir)).toEqual([]);
    // 255 bytes, the most a name may have: the `.part` file's own name does not add to it.
    const longest = `${'b'.repeat(251)}.csv`;
    await replaceFileBeside(join(dir, longest), 'a,b\r\n');
    expect(await readdir(dir)).toEqual([longest]);
  });

  it.skipIf(process.getuid?.() === 0)(
    'names a read-only folder (skipped as root: chmod does not bind root)',
    async () => {
      const target = join(dir, 'pictor-costs.csv');
      await writeFile(target, 'the old export');
      await chmod(dir, 0o500);
      try {
        const refusal = await refusalOf(replaceFileBeside(target, 'a,b\r\n'));
        expect(refusal.sentence?.params).toMatchObject({ problem: 'denied', code: 'EACCES' });
      } finally {
        await chmod(dir, 0o700);
      }
      expect(await readFile(target, 'utf8')).toBe('the old export');
      expect(await readdir(dir)).toEqual(['pictor-costs.csv']);
    },
  );
});

describe('a chosen file whose disk fails it (injected faults)', () => {
  it('stops at a disk that fills mid-write, leaving the file it would replace byte for byte', async () => {
    const target = join(dir, 'fox.png');
    const before = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 255, 254]);
    await writeFile(target, before);
    fault.write = { code: 'ENOSPC', after: 10 };
    const refusal = await refusalOf(
      replaceFileBeside(target, byteChunks('first chunk', 'second chunk')),
    );
    // Part of the new file was on the disk when it filled.
    expect(fault.written).toBe(10);
    expect(refusal.sentence?.params).toEqual({ file: target, problem: 'full', code: 'ENOSPC' });
    expect(refusal.message).toBe(
      `Pictor could not save the file ${target} because the disk is full (no space left) (ENOSPC). Nothing was changed there; free some space or choose a folder on another disk, then try again.`,
    );
    expect(await readdir(dir)).toEqual(['fox.png']);
    expect((await readFile(target)).equals(before)).toBe(true);
  });

  it.each([
    ['a write not allowed', { create: 'EACCES' }, 'denied', 'not allowed to write there (EACCES)'],
    ['a read-only disk refusing the file', { create: 'EROFS' }, 'readOnly', 'is read-only'],
    ['a quota used up mid-write', { write: { code: 'EDQUOT', after: 3 } }, 'quota', 'quota'],
    ['a quota reached at the sync', { sync: 'EDQUOT' }, 'quota', 'quota is used up'],
    ['the rename into place refused', { rename: 'EPERM' }, 'denied', 'not allowed to write'],
    ['an input/output error', { write: { code: 'EIO', after: 0 } }, 'code', 'costs.csv (EIO)'],
  ])('says so for %s, the old file kept', async (_name, injected, problem, words) => {
    const target = join(dir, 'costs.csv');
    await writeFile(target, 'the old export');
    Object.assign(fault, injected);
    const refusal = await refusalOf(replaceFileBeside(target, 'a,b\r\n1,2\r\n'));
    expect(refusal.sentence?.params).toMatchObject({ file: target, problem });
    expect(refusal.message).toContain(words);
    expect(refusal.message).toContain('Nothing was changed there;');
    expect(await readdir(dir)).toEqual(['costs.csv']);
    expect(await readFile(target, 'utf8')).toBe('the old export');
  });

  it('saves once the disk takes it again', async () => {
    const target = join(dir, 'costs.csv');
    fault.write = { code: 'ENOSPC', after: 0 };
    await refusalOf(replaceFileBeside(target, 'a,b\r\n'));
    fault.write = null;
    await replaceFileBeside(target, 'a,b\r\n');
    expect(await readFile(target, 'utf8')).toBe('a,b\r\n');
    expect(await readdir(dir)).toEqual(['costs.csv']);
  });
});
