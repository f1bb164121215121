/**
 * A file's template folder (tests/support/folder-template.ts): made once for the file, each test
 * working on its own copy, so what one test does to its copy no other test sees.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderTemplate } from '../../support/folder-template';
import { offlineDir } from '../../support/offline-core';

let made = 0;
const template = folderTemplate('folder-template-test', async (folder) => {
  made += 1;
  await mkdir(join(folder, 'data', 'gallery'), { recursive: true });
  await writeFile(join(folder, 'data', 'history.txt'), 'two tasks');
});

/** A test's own folder (removed when the test ends) holding a copy of the template. */
async function ownCopy(): Promise<string> {
  const folder = await offlineDir();
  await template.copyInto(folder);
  return folder;
}

describe('folderTemplate', () => {
  // The two tests run in order: the second sees what the first did to its copy, if anything.
  it('gives a test a copy of what the template made, the test’s to change', async () => {
    const folder = await ownCopy();
    expect(await readFile(join(folder, 'data', 'history.txt'), 'utf8')).toBe('two tasks');
    await writeFile(join(folder, 'data', 'history.txt'), 'changed');
    await rm(join(folder, 'data', 'gallery'), { recursive: true });
    await writeFile(join(folder, 'data', 'added.txt'), '');
  });

  it('gives the next test the template as made, made once for the file', async () => {
    const folder = await ownCopy();
    expect(await readdir(join(folder, 'data'))).toEqual(['gallery', 'history.txt']);
    expect(await readFile(join(folder, 'data', 'history.txt'), 'utf8')).toBe('two tasks');
    expect(made).toBe(1);
  });
});
