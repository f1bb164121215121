/**
 * Tests find outside programs on PATH (never at one distribution's path) and, where one cannot be
 * had, are skipped with a title that names it.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fifoMaker, findOnPath, needing, pathOf, posixShell, tool } from '../../support/tools';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let dir = '';
beforeAll(async () => {
  dir = await tempFolder('tools');
  await mkdir(path.join(dir, 'a'));
  await mkdir(path.join(dir, 'b'));
  await writeFile(path.join(dir, 'a', 'exiftool'), 'not executable');
  await writeFile(path.join(dir, 'b', 'exiftool'), '#!/bin/sh\n');
  await chmod(path.join(dir, 'b', 'exiftool'), 0o755);
  await writeFile(path.join(dir, 'b', 'exiftool.EXE'), 'MZ');
  await mkdir(path.join(dir, 'a', 'sh'));
  await mkdir(path.join(dir, 'msys'));
  await writeFile(path.join(dir, 'msys', 'mkfifo.EXE'), 'MZ');
});
afterAll(async () => {
  await removeFolder(dir);
});

describe('findOnPath', () => {
  it.skipIf(process.platform === 'win32')(
    'takes the first executable file on PATH, skipping files that cannot run and folders',
    () => {
      const PATH = [path.join(dir, 'a'), '', path.join(dir, 'b')].join(':');
      expect(findOnPath('exiftool', { PATH }, 'linux')).toBe(path.join(dir, 'b', 'exiftool'));
      expect(findOnPath('sh', { PATH: path.join(dir, 'a') }, 'linux')).toBeNull();
    },
  );

  it('tries PATHEXT extensions on Windows', () => {
    const PATH = [path.join(dir, 'a'), path.join(dir, 'b')].join(';');
    // a/exiftool has no extension, so Windows would not run it; b/exiftool.EXE it would.
    expect(findOnPath('exiftool', { PATH, PATHEXT: '.EXE;.CMD' }, 'win32')).toBe(
      path.join(dir, 'b', 'exiftool.EXE'),
    );
  });

  it('finds nothing with an empty PATH', () => {
    expect(findOnPath('exiftool', { PATH: '' }, 'linux')).toBeNull();
  });
});

describe('a tool that cannot be had', () => {
  it('names what is missing in the skipped test’s title, and refuses to give a path', () => {
    const missing = tool('pictor-no-such-tool', { PATH: path.join(dir, 'a') });
    expect(missing.path).toBeNull();
    expect(needing(missing, 'reads the XMP')).toBe(
      'reads the XMP (skipped: pictor-no-such-tool is not on PATH)',
    );
    expect(() => pathOf(missing)).toThrow('pictor-no-such-tool is not on PATH');
  });

  it('keeps the title of a test whose tool was found', () => {
    const found = tool('exiftool', { PATH: path.join(dir, 'b') });
    expect(needing(found, 'reads the XMP')).toBe('reads the XMP');
  });

  it('is a POSIX sh everywhere but Windows, where the reason is given', () => {
    expect(posixShell({ PATH: '' }, 'win32').missing).toMatch(/no POSIX sh on Windows/);
    expect(posixShell({ PATH: '' }, 'darwin').missing).toBe('sh is not on PATH');
  });

  it('is a mkfifo everywhere but Windows, even one on PATH there, where the reason is given', () => {
    // Git's MSYS mkfifo.exe, on PATH in Git Bash: found, and still not used.
    const msys = { PATH: path.join(dir, 'msys'), PATHEXT: '.EXE' };
    expect(findOnPath('mkfifo', msys, 'win32')).not.toBeNull();
    expect(fifoMaker(msys, 'win32')).toMatchObject({ path: null, missing: 'no FIFOs on Windows' });
    expect(fifoMaker({ PATH: '' }, 'linux').missing).toBe('mkfifo is not on PATH');
  });
});
