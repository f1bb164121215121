/**
 * The archive an export writes, when its own file cannot be created, written, synced or put in
 * place: a real library exported into real temporary folders (a folder that does not exist, a
 * file where the folder should be, a read-only folder, a name too long), and the faults a real
 * folder cannot be made to give here injected where the file system would give them (a disk that
 * fills mid-write, a read-only disk, a quota hit at the sync, a rename refused). Each ends with
 * the export's sentence naming the file and why, never a raw file-system error, no `.part` file
 * left and the target as it was.
 */
import type * as Fs from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { englishText } from '../../../../../shared/i18n/sentence';
import { ArchiveNotWrittenError } from '../../../../../electron/core/library/archive/archive-errors';
import { exportLibrary } from '../../../../../electron/core/library/archive/export-library';
import { addTask, useLibrary } from './library-fixture';

/** The injected faults, each on the export's `.part` file only. */
const fault = vi.hoisted(() => ({
  /** Its creation fails with this code. */
  create: null as string | null,
  /** Its writes fail with `code` once more than `after` bytes were taken. */
  write: null as { code: string; after: number } | null,
  /** Its sync fails with this code. */
  sync: null as string | null,
  /** Its rename onto the target fails with this code. */
  rename: null as string | null,
}));

const systemError = (code: string) =>
  Object.assign(new Error(`${code}: injected`), { code, syscall: 'write' });
const isPart = (path: unknown) => String(path).endsWith('.part');

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof Fs>();
  const createWriteStream = ((path: string, options: never) => {
    if (fault.create !== null && isPart(path)) {
      const code = fault.create;
      return new Writable({ construct: (done) => done(systemError(code)) });
    }
    const stream = fs.createWriteStream(path, options);
    const failing = fault.write;
    if (failing === null || !isPart(path)) return stream;
    let taken = 0;
    const write = stream._write.bind(stream);
    return Object.assign(stream, {
      _writev: undefined,
      _write(chunk: Buffer, encoding: BufferEncoding, done: (error?: Error | null) => void) {
        taken += chunk.length;
        if (taken > failing.after) done(systemError(failing.code));
        else write(chunk, encoding, done);
      },
    });
  }) as typeof fs.createWriteStream;
  return { ...fs, createWriteStream, default: { ...fs, createWriteStream } };
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  const patched = {
    ...fs,
    open: async (path: string, flags?: string, mode?: number) => {
      const handle = await fs.open(path, flags, mode);
      const code = fault.sync;
      if (code === null || !isPart(path)) return handle;
      return Object.assign(handle, { sync: () => Promise.reject(systemError(code)) });
    },
    rename: (from: string, to: string) =>
      fault.rename !== null && isPart(from)
        ? Promise.reject(systemError(fault.rename))
        : fs.rename(from, to),
  };
  return { ...patched, default: patched };
});

afterEach(() => {
  Object.assign(fault, { create: null, write: null, sync: null, rename: null });
});

const library = useLibrary();

/** A library of three tasks with real images, and an empty folder to export into. */
async function withTasks(): Promise<string> {
  for (let n = 0; n < 3; n += 1) await addTask(library, ['png', 'jpeg']);
  const out = join(library.dir, 'out');
  await mkdir(out);
  return out;
}

function exportTo(target: string, overwrite = false) {
  return exportLibrary({
    root: library.root,
    history: library.history,
    target,
    pictorVersion: '9.9.9',
    ...(overwrite ? { overwrite } : {}),
  });
}

/** The export's refusal: its sentence's values, and its English words. */
async function refusalOf(export_: Promise<unknown>): Promise<ArchiveNotWrittenError> {
  const error = await export_.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ArchiveNotWrittenError);
  const refusal = error as ArchiveNotWrittenError;
  expect(refusal.sentence?.key).toBe('error.library.exportNotWritten');
  expect(refusal.message).toBe(englishText(refusal.sentence!));
  return refusal;
}

describe('an archive that cannot be written where the user chose', () => {
  it('names a folder that does not exist, and creates nothing', async () => {
    const out = await withTasks();
    const target = join(out, 'gone', 'library.zip');
    const refusal = await refusalOf(exportTo(target));
    expect(refusal.sentence?.params).toEqual({ file: target, problem: 'noFolder', code: 'ENOENT' });
    expect(refusal.message).toBe(
      `Pictor could not write the archive ${target} because its folder does not exist (ENOENT). Nothing was exported there; choose another folder, then export again.`,
    );
    expect(refusal.detail).toMatch(/ENOENT/);
    expect(await readdir(out)).toEqual([]);
  });

  it('names a file where the folder should be, and leaves that file alone', async () => {
    const out = await withTasks();
    await writeFile(join(out, 'notes.txt'), 'mine');
    const target = join(out, 'notes.txt', 'library.zip');
    const refusal = await refusalOf(exportTo(target));
    expect(refusal.sentence?.params).toMatchObject({ problem: 'notFolder', code: 'ENOTDIR' });
    expect(refusal.message).toContain(
      `${target} because part of its path is a file, not a folder (ENOTDIR). Nothing was exported there; choose another folder`,
    );
    expect(await readdir(out)).toEqual(['notes.txt']);
    expect(await readFile(join(out, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it.skipIf(process.getuid?.() === 0)(
    'names a read-only folder (skipped as root: chmod does not bind root)',
    async () => {
      const out = await withTasks();
      await chmod(out, 0o500);
      try {
        const refusal = await refusalOf(exportTo(join(out, 'library.zip')));
        expect(refusal.sentence?.params).toMatchObject({ problem: 'denied', code: 'EACCES' });
        expect(refusal.message).toContain(
          'because Pictor is not allowed to write there (EACCES). Nothing was exported there; choose another folder, then export again.',
        );
      } finally {
        await chmod(out, 0o700);
      }
      expect(await readdir(out)).toEqual([]);
    },
  );

  it('names a file name too long for the folder, and takes one as long as it allows', async () => {
    const out = await withTasks();
    const tooLong = join(out, `${'a'.repeat(252)}.zip`);
    const refusal = await refusalOf(exportTo(tooLong, true));
    expect(refusal.sentence?.params).toMatchObject({ problem: 'nameTooLong' });
    expect(refusal.message).toContain(
      'because its name is too long (ENAMETOOLONG). Nothing was exported there; choose a shorter name or another folder, then export again.',
    );
    expect(await readdir(out)).toEqual([]);
    // 255 bytes, the most a name may have: the `.part` file's own name does not add to it.
    const longest = `${'b'.repeat(251)}.zip`;
    const summary = await exportTo(join(out, longest));
    expect(summary).toMatchObject({ tasks: 3, images: 6, skipped: [] });
    expect(await readdir(out)).toEqual([longest]);
  });
});

describe('an archive whose disk fails it (injected faults)', () => {
  it('stops at a disk that fills mid-write, leaving the file it would replace as it was', async () => {
    const out = await withTasks();
    const target = join(out, 'library.zip');
    await writeFile(target, 'the archive of last week');
    fault.write = { code: 'ENOSPC', after: 2048 };
    const refusal = await refusalOf(exportTo(target, true));
    expect(refusal.sentence?.params).toEqual({ file: target, problem: 'full', code: 'ENOSPC' });
    expect(refusal.message).toBe(
      `Pictor could not write the archive ${target} because the disk is full (no space left) (ENOSPC). Nothing was exported there; free some space or choose a folder on another disk, then export again.`,
    );
    expect(await readdir(out)).toEqual(['library.zip']);
    expect(await readFile(target, 'utf8')).toBe('the archive of last week');
  });

  it.each([
    ['a read-only disk refusing the file', { create: 'EROFS' }, 'readOnly', 'is read-only'],
    ['a quota reached at the sync', { sync: 'EDQUOT' }, 'quota', 'quota is used up'],
    ['the rename into place refused', { rename: 'EPERM' }, 'denied', 'not allowed to write'],
    ['an input/output error', { write: { code: 'EIO', after: 0 } }, 'code', 'library.zip (EIO)'],
  ])('says so for %s', async (_name, injected, problem, words) => {
    const out = await withTasks();
    const target = join(out, 'library.zip');
    Object.assign(fault, injected);
    const refusal = await refusalOf(exportTo(target, true));
    expect(refusal.sentence?.params).toMatchObject({ file: target, problem });
    expect(refusal.message).toContain(words);
    expect(refusal.message).toContain('Nothing was exported there;');
    expect(await readdir(out)).toEqual([]);
  });

  it('puts the archive in place once the disk takes it again', async () => {
    const out = await withTasks();
    const target = join(out, 'library.zip');
    fault.write = { code: 'ENOSPC', after: 0 };
    await refusalOf(exportTo(target));
    fault.write = null;
    expect(await exportTo(target)).toMatchObject({ file: target, tasks: 3, images: 6 });
    expect(await readdir(out)).toEqual(['library.zip']);
  });
});

describe('an archive written over one the user had', () => {
  it.each([
    ['0600', 0o600],
    ['0640', 0o640],
  ])('keeps that file’s permissions (%s): a private archive stays private', async (_, mode) => {
    const out = await withTasks();
    const target = join(out, 'library.zip');
    await writeFile(target, 'the archive before');
    await chmod(target, mode);
    expect(await exportTo(target, true)).toMatchObject({ file: target, tasks: 3 });
    expect((await stat(target)).mode & 0o7777).toBe(mode);
    expect(await readFile(target, 'latin1')).not.toBe('the archive before');
    expect(await readdir(out)).toEqual(['library.zip']);
  });
});
