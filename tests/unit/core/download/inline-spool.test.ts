/**
 * The spool of images sent inline, `<task folder>/.inline/<sha256>`, in a gallery folder someone
 * else may have shaped (an imported archive's records, a crafted folder and its sidecar): what is
 * read from it is a regular file inside the gallery, never through a link, never a pipe; a name
 * that is not a hash never becomes a path; and keeping the spool never acts through a link.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  dropInlineImage,
  inlineSpoolResponse,
  keepInlineImages,
} from '../../../../electron/core/download/inline-spool';
import { sentence } from '../../../../shared/i18n/sentence';
import { fifoMaker, makeFifo, needing } from '../../../support/tools';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const FIFO = fifoMaker();
const CAP = 1024 * 1024;
const BYTES = Buffer.from('bytes that stand for an image sent inline');
const SHA = createHash('sha256').update(BYTES).digest('hex');
const LOST = { state: 'invalid', errorSentence: sentence('error.gallery.inlineImageLost') };

let base: string;
let root: string;
let folder: string;
let outside: string;

beforeEach(async () => {
  base = await tempFolder('gallery');
  root = join(base, 'gallery');
  folder = join(root, '2025', '01', 'task');
  outside = join(base, 'outside');
  await mkdir(join(root, '.pictor-tmp'), { recursive: true });
  await mkdir(folder, { recursive: true });
  await mkdir(outside);
});

afterEach(async () => {
  await removeFolder(base);
});

async function read(sha = SHA) {
  return inlineSpoolResponse(root, folder, sha, CAP);
}

describe('reading a spool file', () => {
  it('answers the bytes its name says', async () => {
    await keepInlineImages(root, folder, [{ sha256: SHA, bytes: BYTES }]);
    const answer = await read();
    expect(answer.ok).toBe(true);
    if (answer.ok) expect(Buffer.from(await answer.response.arrayBuffer())).toEqual(BYTES);
  });

  it('refuses a link in place of the spool file, even to the very bytes it names', async () => {
    await mkdir(join(folder, '.inline'));
    await writeFile(join(outside, 'same'), BYTES);
    await symlink(join(outside, 'same'), join(folder, '.inline', SHA));
    const answer = await read();
    expect(answer).toMatchObject({ ok: false, outcome: LOST });
  });

  it('refuses a spool folder that is a link out of the gallery', async () => {
    await writeFile(join(outside, SHA), BYTES);
    await symlink(outside, join(folder, '.inline'));
    expect(await read()).toMatchObject({ ok: false, outcome: LOST });
  });

  it.skipIf(!FIFO.path)(
    needing(FIFO, 'refuses a FIFO in place of the spool file at once, without a writer'),
    async () => {
      await mkdir(join(folder, '.inline'));
      makeFifo(FIFO, join(folder, '.inline', SHA));
      // Opened as a plain file, the FIFO would wait for a writer: the test's own time limit ends it.
      expect(await read()).toMatchObject({ ok: false, outcome: LOST });
    },
  );

  it('never makes a path of a name that is not a hash', async () => {
    // The name a record gives is `../image-1.png`: read, it would be the task's own image.
    await mkdir(join(folder, '.inline'));
    await writeFile(join(folder, 'image-1.png'), BYTES);
    expect(await read('../image-1.png')).toMatchObject({ ok: false, outcome: LOST });
    await dropInlineImage(root, folder, '../image-1.png');
    expect(existsSync(join(folder, 'image-1.png'))).toBe(true);
  });
});

describe('keeping the spool', () => {
  it('refuses a spool folder that is a link, and neither writes nor changes anything there', async () => {
    await symlink(outside, join(folder, '.inline'));
    const before = (await stat(outside)).mode;
    await expect(keepInlineImages(root, folder, [{ sha256: SHA, bytes: BYTES }])).rejects.toThrow();
    expect(await readdir(outside)).toEqual([]);
    expect((await stat(outside)).mode).toBe(before);
  });

  it('removes the file and then the empty folder once the image has served', async () => {
    await keepInlineImages(root, folder, [{ sha256: SHA, bytes: BYTES }]);
    await dropInlineImage(root, folder, SHA);
    expect(existsSync(join(folder, '.inline'))).toBe(false);
  });
});
