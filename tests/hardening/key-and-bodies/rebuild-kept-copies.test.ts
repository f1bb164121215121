/**
 * `pictor rebuild` of a gallery holding a task kept under a key-carrying id (rebuild-kept-ids.test
 * covers the task's own folder) and COPIES of its folder elsewhere in the gallery: a backup copy
 * with its `pictor.json`, and one that lost it (its images alone). The rebuild takes one folder of
 * the task and skips the others as the same task; it redacted the one it took and left the copies
 * with the key in their sidecar and images' metadata, where no sweep would find it afterwards.
 * Now every copy is made again from its own record, the id redacted, pixels kept, and each keeps
 * having (or not having) its sidecar. A folder whose files cannot be written (a fault: Pictor's
 * temp folder, through which every file is written, is a file) keeps them as they are and is
 * named in the rebuild's output, the id redacted in the history all the same; before, nothing
 * was said. The fault is a real one: the folders refuse new names (read-only, or immutable for
 * root), so no file in them can be replaced.
 */
import { execFileSync } from 'node:child_process';
import { chmod, cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { filesUnder } from '../../support/files';
import { expectExit, useCliWorlds } from '../../integration/cli/cli-harness';
import { ENCODINGS, keyScanner, speltLeaks } from './key-encodings';
import { keptTask } from './kept-id-archive';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const newWorld = useCliWorlds();
const KEY = QUIRKY_KEYS.alice;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function leaksUnder(folder: string): Promise<string[]> {
  const leaking: string[] = [];
  for (const file of await filesUnder(folder, { missing: 'empty' })) {
    const bytes = await readFile(file);
    const text = `${bytes.toString('latin1')}\n${bytes.toString('utf8')}`;
    const found = [...keyScanner(KEY).leaks(text), ...speltLeaks(bytes.toString('utf8'), KEY)];
    if (found.length > 0) leaking.push(`${file.slice(folder.length)}: ${found.join(', ')}`);
  }
  return leaking;
}

/** The kept task's folder in a gallery, and two copies of it: `backup/…` whole, `bare/…` imageless. */
async function galleryWithCopies(taskId: string) {
  const base = await tempFolder('rebuild-kept-copies');
  cleanups.push(() => removeFolder(base));
  const { record, files } = await keptTask(base, taskId);
  const gallery = join(base, 'gallery');
  for (const file of files) {
    await mkdir(dirname(join(gallery, file.path)), { recursive: true });
    await writeFile(join(gallery, file.path), file.data);
  }
  const folder = record.folder!;
  await cp(join(gallery, folder), join(gallery, 'backup', folder), { recursive: true });
  await cp(join(gallery, folder), join(gallery, 'bare', folder), { recursive: true });
  await rm(join(gallery, 'bare', folder, 'pictor.json'));
  const image = files.find((file) => file.kind === 'image')!.data;
  return { gallery, record, pixels: await sharp(image).raw().toBuffer() };
}

/**
 * Makes `folder` refuse new names (the fault): read-only for a user, immutable for root, whom
 * permissions do not stop (`chattr +i`, taken off again before the folder is removed).
 */
async function lockFolder(folder: string): Promise<void> {
  if (process.getuid?.() !== 0) {
    await chmod(folder, 0o555);
    cleanups.push(() => chmod(folder, 0o755));
    return;
  }
  execFileSync('chattr', ['+i', folder]);
  cleanups.push(() => void execFileSync('chattr', ['-i', folder]));
}

const IDS: Record<string, string> = {
  raw: `task-${KEY}`,
  base64: `task-${ENCODINGS.base64!(KEY, 1)}`,
};

describe('pictor rebuild of a gallery holding copies of a kept task’s folder', () => {
  it.each(Object.keys(IDS))(
    'id %s: every copy is made again with the key redacted',
    async (name) => {
      const g = await galleryWithCopies(IDS[name]!);
      // The positive control: each copy says the id.
      for (const copy of ['backup', 'bare'])
        expect((await leaksUnder(join(g.gallery, copy))).length, copy).toBeGreaterThan(0);
      const world = await newWorld();
      expectExit(await world.run(['rebuild', '--gallery-dir', g.gallery]), 0);
      const listed = await world.list();
      expect(listed.find((one) => one.localId === g.record.localId)?.taskId).toContain(
        '[redacted]',
      );
      expect(await leaksUnder(g.gallery), name).toEqual([]);
      for (const copy of ['', 'backup', 'bare']) {
        const image = join(g.gallery, copy, g.record.images[0]!.file!);
        expect(await sharp(image).raw().toBuffer(), copy).toEqual(g.pixels);
      }
      expect(existsSync(join(g.gallery, 'bare', g.record.folder!, 'pictor.json'))).toBe(false);
    },
  );

  it('names a kept task’s folder whose files could not be written, the id redacted all the same', async () => {
    const g = await galleryWithCopies(IDS['raw']!);
    for (const folder of ['', 'backup', 'bare'])
      await lockFolder(join(g.gallery, folder, g.record.folder!));
    const world = await newWorld();
    const run = await world.run(['rebuild', '--gallery-dir', g.gallery]);
    expectExit(run, 0);
    const listed = await world.list();
    expect(listed.find((one) => one.localId === g.record.localId)?.taskId).toContain('[redacted]');
    for (const folder of [
      g.record.folder!,
      `backup/${g.record.folder!}`,
      `bare/${g.record.folder!}`,
    ]) {
      expect(run.stderr).toContain(
        `Read ${folder}: This task's service id carried an API key Pictor holds. The history has it redacted, but the files in this folder could not be written`,
      );
    }
    expect(keyScanner(KEY).leaks(`${run.stdout}\n${run.stderr}`)).toEqual([]);
  });
});
