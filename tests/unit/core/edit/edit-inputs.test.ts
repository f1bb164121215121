/**
 * The inputs main takes from the page, on the real input store in a temp gallery with real image
 * bytes and the tests' image engine: a file from main's dialog (a PNG kept; a GIF, a folder and a
 * FIFO refused), a library image read inside the gallery (a link out of it refused), a mask (its
 * source's exact size kept; another size, not a PNG, not base64, an unknown source refused, and
 * nothing stored), a smaller copy that fits a side and a byte limit, and what the store holds
 * read from its own bytes (a crafted digest, a changed file: nothing).
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { englishText } from '../../../../shared/i18n/sentence';
import { EditInputs } from '../../../../electron/core/edit/edit-inputs';
import { EditInputError } from '../../../../electron/core/edit/edit-plan';
import { GalleryImageError } from '../../../../electron/core/gallery/gallery-images';
import { resolveInside } from '../../../../electron/core/fs/gallery-path';
import { InputStore, InputStoreError } from '../../../../electron/core/inputs/input-store';
import type { UserFacingError } from '../../../../electron/core/errors/user-facing-error';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { testImageEngine } from '../../../support/image-engine';
import { makeImage, makeTask } from '../../../support/task-records';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

let root: string;
let outside: string;
let records: Map<string, TaskRecord>;
let inputs: EditInputs;

beforeEach(async () => {
  root = await tempFolder('edit-inputs');
  outside = await tempFolder('edit-outside');
  records = new Map();
  const gallery = { root, resolve: (relative: string) => resolveInside(root, relative) };
  inputs = new EditInputs({
    store: new InputStore({ root }),
    images: testImageEngine,
    records: { get: (localId) => records.get(localId) },
    gallery,
  });
});
afterEach(async () => {
  await removeFolder(root);
  await removeFolder(outside);
});

function picture(format: 'png' | 'jpeg' | 'gif', width = 40, height = 30): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3a7' } })
    .toFormat(format)
    .toBuffer();
}

/** A PNG of noise: it does not compress, so its bytes grow with its area. */
function noise(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The refusal's key and English words; an EditInputError unless `kind` names another. */
async function refusal(
  promise: Promise<unknown>,
  kind: new (...args: never[]) => UserFacingError = EditInputError,
): Promise<string> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(kind);
  const said = (error as UserFacingError).sentence;
  return said ? `${said.key} ${englishText(said)}` : '';
}

async function stored(): Promise<string[]> {
  return readdir(join(root, 'inputs')).catch(() => []);
}

describe('a file from main’s open dialog', () => {
  it('keeps a PNG by its digest, and refuses a GIF, a folder and a FIFO with a sentence', async () => {
    const png = await picture('png');
    await writeFile(join(outside, 'a.png'), png);
    expect(await inputs.fromFile(join(outside, 'a.png'))).toEqual({
      sha256: sha(png),
      mime: 'image/png',
      width: 40,
      height: 30,
      bytes: png.length,
    });
    // One refusal, one sentence: the store's reading of the format, not a second check before it.
    await writeFile(join(outside, 'b.png'), await picture('gif'));
    expect(await refusal(inputs.fromFile(join(outside, 'b.png')), InputStoreError)).toMatch(
      /^error.inputs.format This file is not a PNG, JPEG or WebP image/,
    );
    await mkdir(join(outside, 'folder.png'));
    expect(await refusal(inputs.fromFile(join(outside, 'folder.png')))).toMatch(
      /^error.edit.fileUnreadable/,
    );
    execFileSync('mkfifo', [join(outside, 'pipe.png')]);
    expect(await refusal(inputs.fromFile(join(outside, 'pipe.png')))).toMatch(
      /^error.edit.fileUnreadable/,
    );
    expect(await stored()).toEqual([`${sha(png)}.png`]);
  });
});

describe('a library image', () => {
  it('is read inside the gallery and kept, with its parent; a link out of the gallery is not followed', async () => {
    const jpeg = await picture('jpeg', 64, 48);
    await mkdir(join(root, '2026', '01'), { recursive: true });
    await writeFile(join(root, '2026', '01', 'image-1.jpg'), jpeg);
    await writeFile(join(outside, 'secret.jpg'), await picture('jpeg', 8, 8));
    await symlink(join(outside, 'secret.jpg'), join(root, '2026', '01', 'image-2.jpg'));
    const task = makeTask({
      status: 'completed',
      images: [
        makeImage(0, { state: 'saved', file: '2026/01/image-1.jpg' }),
        makeImage(1, { state: 'saved', file: '2026/01/image-2.jpg' }),
      ],
    });
    records.set(task.localId, task);
    const taken = await inputs.fromLibrary({ localId: task.localId, index: 0 });
    expect(taken.parent).toEqual({ localId: task.localId, index: 0 });
    expect(taken.image).toMatchObject({ sha256: sha(jpeg), mime: 'image/jpeg', width: 64 });
    expect(await refusal(inputs.fromLibrary({ localId: task.localId, index: 1 }))).toMatch(
      /^error.edit.fileUnreadable/,
    );
    await expect(inputs.fromLibrary({ localId: 'no-such-task', index: 0 })).rejects.toBeInstanceOf(
      GalleryImageError,
    );
    expect(await stored()).toEqual([`${sha(jpeg)}.jpg`]);
  });
});

describe('a mask', () => {
  it('is kept at its source’s exact size, and refused otherwise before anything is stored', async () => {
    const source = await inputs.fromFile(await fileOf(await picture('jpeg', 40, 30)));
    const mask = await picture('png', 40, 30);
    const kept = await inputs.putMask(source.sha256, mask.toString('base64'));
    expect(kept).toMatchObject({ sha256: sha(mask), mime: 'image/png', width: 40, height: 30 });
    const before = await stored();
    const other = (await picture('png', 30, 40)).toString('base64');
    expect(await refusal(inputs.putMask(source.sha256, other))).toBe(
      'error.edit.maskSize The mask is 30×40 pixels and its image 40×30: a mask must be its image’s exact size. Nothing was stored.',
    );
    const jpeg = (await picture('jpeg', 40, 30)).toString('base64');
    expect(await refusal(inputs.putMask(source.sha256, jpeg))).toMatch(/^error.edit.maskNotPng/);
    // A PNG signature over a header that is no PNG's.
    const damaged = Buffer.concat([mask.subarray(0, 8), Buffer.alloc(40, 0xff)]);
    expect(await refusal(inputs.putMask(source.sha256, damaged.toString('base64')))).toMatch(
      /^error.edit.maskNotPng/,
    );
    expect(await refusal(inputs.putMask(source.sha256, '../../etc/passwd'))).toMatch(
      /^error.edit.maskNotPng/,
    );
    const unknown = sha(Buffer.from('never stored'));
    const error = await inputs.putMask(unknown, mask.toString('base64')).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/choose it again/),
    });
    expect(await refusal(inputs.putMask('../inputs/x', mask.toString('base64')))).toMatch(
      /^error.edit.inputMissing/,
    );
    expect(await stored()).toEqual(before);
  });
});

describe('a smaller copy', () => {
  it('fits the side asked for, then the bytes asked for, as a PNG kept by its digest', async () => {
    const source = await inputs.fromFile(await fileOf(await noise(400, 300)));
    const smaller = await inputs.downscale(source.sha256, 100);
    expect(smaller).toMatchObject({ mime: 'image/png', width: 100, height: 75 });
    const small = await inputs.downscale(source.sha256, 200, 8_000);
    expect(small.bytes).toBeLessThanOrEqual(8_000);
    expect(small.width).toBeLessThan(200);
    expect(small.width / small.height).toBeCloseTo(4 / 3, 1);
    expect(await inputs.describe(small.sha256)).toEqual(small);
    expect(await refusal(inputs.downscale(sha(Buffer.from('nothing')), 100))).toMatch(
      /^error.edit.inputMissing/,
    );
  });
});

describe('what the store holds', () => {
  it('is read from its bytes; a crafted digest or a changed file is nothing', async () => {
    const png = await picture('png');
    const kept = await inputs.fromFile(await fileOf(png));
    expect(await inputs.describe(kept.sha256)).toEqual(kept);
    expect(await inputs.relativePath(kept.sha256)).toBe(`inputs/${kept.sha256}.png`);
    expect(await inputs.describe('../../../etc/passwd')).toBeNull();
    expect(await inputs.describe(sha(Buffer.from('absent')))).toBeNull();
    await writeFile(join(root, 'inputs', `${kept.sha256}.png`), await picture('png', 41, 30));
    // Read afresh (another session, or the send, which reads and hashes every input again), the
    // changed file is nothing under that digest.
    const fresh = new EditInputs({
      store: new InputStore({ root }),
      images: testImageEngine,
      records: { get: (localId) => records.get(localId) },
      gallery: { root, resolve: (relative: string) => resolveInside(root, relative) },
    });
    expect(await fresh.describe(kept.sha256)).toBeNull();
    expect(await refusal(fresh.relativePath(kept.sha256))).toMatch(/^error.edit.inputMissing/);
    await expect(new InputStore({ root }).read(kept.sha256)).rejects.toThrow();
  });

  it('describes a digest once: a plan made again reads no input file again', async () => {
    const kept = await inputs.fromFile(await fileOf(await picture('png')));
    const store = new InputStore({ root });
    let reads = 0;
    const counted = new EditInputs({
      store: {
        put: (bytes) => store.put(bytes),
        read: (wanted) => store.read(wanted),
        relativePath: (image) => store.relativePath(image),
        touch: (image) => store.touch(image),
        describe: (wanted) => {
          reads += 1;
          return store.describe(wanted);
        },
      },
      images: testImageEngine,
      records: { get: (localId) => records.get(localId) },
      gallery: { root, resolve: (relative: string) => resolveInside(root, relative) },
    });
    for (let plan = 0; plan < 5; plan += 1)
      expect(await counted.describe(kept.sha256)).toEqual(kept);
    await counted.relativePath(kept.sha256);
    expect(reads).toBe(1);
  });
});

async function fileOf(bytes: Buffer): Promise<string> {
  const path = join(outside, `${sha(bytes)}.bin`);
  await writeFile(path, bytes);
  return path;
}
