/**
 * Folders of Pictor's own below the data folder — the target folder and `.pictor-tmp` of a private
 * file (electron/core/fs/private-write.ts writePrivateFile: the model options, a ComfyUI
 * workflow, the swept keys' list), the trash journal's folder and the app's `logs` — were made private with
 * ensurePrivateFolder, which `stat`s and `chmod`s through a link. A link another local user left
 * there while the data folder was open to others (a `--data-dir` in a shared place, a loose umask)
 * had its target — a folder of the user's — made 0700 before the atomic write refused the link,
 * and the trash journal and the log wrote their files (the user's prompts and paths) into
 * wherever it pointed.
 * Each is now a real folder in the data folder (contained-fs.ts ensurePrivateFolderBelow: a link
 * or a file is refused before any chmod, never followed). Real files and links on this disk.
 */
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readdir, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  TEMP_DIR,
  tightenFileSync,
  UnsafePathError,
  writePrivateFile,
} from '../../../electron/core/fs';
import { RotatingFileLogger } from '../../../electron/core/logging';
import { TRASH_JOURNAL_DIR, TrashJournal } from '../../../electron/core/trash';
import { plantedLinkFolders } from './planted-link-fixture';

const posix = process.platform !== 'win32';

const THEIR_FILES = ['notes.txt', 'photo.png'];
const folders = plantedLinkFolders('private-folder-links', THEIR_FILES);
const theirFolder = () => folders.theirFolder();
let data: string;
/** A folder of the user's, readable by others as they chose, that a planted link points at. */
let theirs: string;
beforeEach(() => {
  ({ data, theirs } = folders);
});

/** A link planted at `name` in the data folder while it was open to others. */
async function planted(name: string): Promise<string> {
  await chmod(data, 0o777);
  const at = join(data, name);
  await symlink(theirs, at, 'dir');
  return at;
}

describe('a private file written through a planted link', () => {
  it.each([
    ['its own folder', 'workflows', (at: string) => join(at, 'book.json')],
    ['the temporary folder', TEMP_DIR, () => join(data, 'options.json')],
  ])(
    'is refused when %s is a link, the folder it points at left as it was',
    async (_, name, target) => {
      const at = await planted(name);
      await expect(writePrivateFile(data, target(at), '{}')).rejects.toBeInstanceOf(
        UnsafePathError,
      );
      expect(await theirFolder()).toEqual({ names: THEIR_FILES, mode: 0o755 });
      expect(await readlink(at)).toBe(theirs);
      if (posix) expect((await stat(data)).mode & 0o777).toBe(0o700);
    },
  );

  it('is refused when its folder is a file, the file kept', async () => {
    await writeFile(join(data, 'workflows'), 'not a folder');
    await expect(
      writePrivateFile(data, join(data, 'workflows', 'book.json'), '{}'),
    ).rejects.toBeInstanceOf(UnsafePathError);
    expect((await stat(join(data, 'workflows'))).isFile()).toBe(true);
  });

  it('is written, private, in real folders it makes or tightens', async () => {
    if (!posix) return;
    await mkdir(join(data, 'workflows'));
    await chmod(join(data, 'workflows'), 0o755);
    const target = join(data, 'workflows', 'book.json');
    await writePrivateFile(data, target, '{"a":1}');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect((await stat(join(data, 'workflows'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(data, TEMP_DIR))).mode & 0o777).toBe(0o700);
  });
});

describe('the trash journal', () => {
  it('refuses a link as its folder: nothing written or tightened where it points', async () => {
    const at = await planted(TRASH_JOURNAL_DIR);
    const journal = new TrashJournal(at);
    await expect(journal.load()).rejects.toBeInstanceOf(UnsafePathError);
    await expect(
      journal.saveRestore({ v: 1, id: randomUUID(), entries: [] }),
    ).rejects.toBeInstanceOf(UnsafePathError);
    expect(await theirFolder()).toEqual({ names: THEIR_FILES, mode: 0o755 });
  });

  it('keeps its journal in a real private folder it makes', async () => {
    const journal = new TrashJournal(join(data, TRASH_JOURNAL_DIR));
    expect(await journal.load()).toBeDefined();
    const info = await stat(join(data, TRASH_JOURNAL_DIR));
    expect(info.isDirectory()).toBe(true);
    if (posix) expect(info.mode & 0o777).toBe(0o700);
  });
});

describe('the log', () => {
  it('refuses a link as its folder: its lines go to the fallback, nothing written where it points', async () => {
    const at = await planted('logs');
    const fallback: string[] = [];
    const logger = new RotatingFileLogger({ dir: at, fallback: (text) => fallback.push(text) });
    logger.info('a prompt: a cat on the moon');
    await logger.close();
    expect(fallback.join('')).toContain('a cat on the moon');
    expect(await theirFolder()).toEqual({ names: THEIR_FILES, mode: 0o755 });
  });

  it('is written in a real private folder it makes', async () => {
    const logs = join(data, 'logs');
    const logger = new RotatingFileLogger({ dir: logs, fallback: () => undefined });
    logger.info('a line');
    await logger.close();
    expect(await readdir(logs)).toEqual(['pictor.log']);
    if (posix) expect((await stat(logs)).mode & 0o777).toBe(0o700);
  });
});

describe('a kept file tightened (settings.json, a key vault)', () => {
  it('is not tightened through a link: the file it points at keeps its mode', async () => {
    if (!posix) return;
    await symlink(join(theirs, 'notes.txt'), join(data, 'settings.json'));
    await chmod(join(theirs, 'notes.txt'), 0o644);
    tightenFileSync(join(data, 'settings.json'));
    expect((await stat(join(theirs, 'notes.txt'))).mode & 0o777).toBe(0o644);
  });

  it('is tightened when it is a file of its own', async () => {
    if (!posix) return;
    await writeFile(join(data, 'settings.json'), '{}', { mode: 0o644 });
    await chmod(join(data, 'settings.json'), 0o644);
    tightenFileSync(join(data, 'settings.json'));
    expect((await stat(join(data, 'settings.json'))).mode & 0o777).toBe(0o600);
  });
});
