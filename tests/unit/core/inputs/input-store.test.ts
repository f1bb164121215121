/**
 * The input store on real files in a temp gallery: real PNG, JPEG and WebP bytes in, the same
 * bytes out by digest; other formats, damaged or oversized headers, changed files and a crafted
 * `inputs/` link refused with sentences; the same image put twice is one file.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { englishText } from '../../../../shared/i18n/sentence';
import { ClosingGate } from '../../../../electron/core/base';
import { UserFacingError } from '../../../../electron/core/errors';
import { InputStore, InputStoreError } from '../../../../electron/core/inputs/input-store';
import { pngDeclaring } from '../../../integration/image-renderer/image-fixtures';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

let root: string;
let outside: string;
let store: InputStore;

beforeEach(async () => {
  root = await tempFolder('inputs');
  outside = await tempFolder('outside');
  store = new InputStore({ root });
});
afterEach(async () => {
  await removeFolder(root);
  await removeFolder(outside);
});

function image(format: 'png' | 'jpeg' | 'webp', width = 30, height = 20): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c83' } })
    .toFormat(format)
    .toBuffer();
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(InputStoreError);
  const { sentence } = error as InputStoreError;
  expect(sentence).toBeDefined();
  return sentence ? `${sentence.key} ${englishText(sentence)}` : '';
}

describe('InputStore.put', () => {
  it.each([
    ['png', 'image/png', 'png'],
    ['jpeg', 'image/jpeg', 'jpg'],
    ['webp', 'image/webp', 'webp'],
  ] as const)('keeps a %s by its digest and says what it is', async (format, mime, extension) => {
    const bytes = await image(format);
    const kept = await store.put(bytes);
    expect(kept).toEqual({ sha256: sha(bytes), mime, width: 30, height: 20, bytes: bytes.length });
    expect(store.relativePath(kept)).toBe(`inputs/${kept.sha256}.${extension}`);
    expect(await readFile(join(root, 'inputs', `${kept.sha256}.${extension}`))).toEqual(bytes);
    expect(await store.read(kept)).toEqual(bytes);
    expect(await store.read(kept.sha256)).toEqual(bytes);
    expect(await store.has(kept)).toBe(true);
  });

  it('keeps the same image once, and writes again a file that no longer matches its name', async () => {
    const bytes = await image('png');
    const first = await store.put(bytes);
    expect(await store.put(Buffer.from(bytes))).toEqual(first);
    expect(await readdir(join(root, 'inputs'))).toEqual([`${first.sha256}.png`]);
    await writeFile(join(root, store.relativePath(first)), 'changed');
    await store.put(bytes);
    expect(await store.read(first)).toEqual(bytes);
  });

  it.each([
    ['a GIF', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00,\x00', 'latin1')],
    ['an HTML page', Buffer.from('<!doctype html><html><body>no</body></html>')],
    ['nothing', Buffer.alloc(0)],
  ])('refuses %s as not a PNG, JPEG or WebP', async (_, bytes) => {
    expect(await refusal(store.put(bytes))).toMatch(/^error\.inputs\.format /);
    expect(await readdir(root)).not.toContain('inputs');
  });

  it('refuses a damaged header, and a side or a file over the limits', async () => {
    const png = await image('png');
    const damaged = Buffer.from(png.subarray(0, 20));
    expect(await refusal(store.put(damaged))).toMatch(/^error\.inputs\.damaged /);
    expect(await refusal(store.put(await pngDeclaring(16_385, 8)))).toMatch(
      /^error\.inputs\.tooBig .*16,384 pixels/,
    );
    const huge = Buffer.concat([png, Buffer.alloc(64 * 1024 * 1024)]);
    expect(await refusal(store.put(huge))).toMatch(/^error\.inputs\.tooBig /);
  });

  it('never writes through an inputs folder that is a link', async () => {
    await symlink(outside, join(root, 'inputs'), 'dir');
    expect(await refusal(store.put(await image('png')))).toMatch(/^error\.inputs\.unsafe /);
    expect(await readdir(outside)).toEqual([]);
  });

  it('writes nothing once the core has closed (its closing gate): refused as “Pictor is closing”', async () => {
    const gate = new ClosingGate();
    const put = new InputStore({ root }, gate).put(await image('png'));
    await gate.close();
    // Asked before the close: kept by the time the close has resolved.
    expect(await readdir(join(root, 'inputs'))).toHaveLength(1);
    await put;
    const late = await new InputStore({ root }, gate)
      .put(await image('webp'))
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(UserFacingError);
    expect((late as UserFacingError).sentence?.key).toBe('error.library.closing');
    expect(await readdir(join(root, 'inputs'))).toHaveLength(1);
  });
});

describe('InputStore.read', () => {
  it('refuses a file changed since it was kept, and one that is gone', async () => {
    const kept = await store.put(await image('webp'));
    const other = await image('webp', 31, 20);
    await writeFile(join(root, store.relativePath(kept)), other);
    expect(await refusal(store.read(kept))).toMatch(/^error\.inputs\.tampered /);
    expect(await store.has(kept)).toBe(false);
    await rm(join(root, store.relativePath(kept)));
    expect(await refusal(store.read(kept.sha256))).toMatch(/^error\.inputs\.missing /);
    expect(await refusal(store.read('../../etc/passwd'))).toMatch(/^error\.inputs\.missing /);
  });

  it('never reads through a link: the folder or the file itself', async () => {
    const bytes = await image('png');
    const digest = sha(bytes);
    await writeFile(join(outside, `${digest}.png`), bytes);
    await symlink(outside, join(root, 'inputs'), 'dir');
    expect(await refusal(store.read(digest))).toMatch(/^error\.inputs\.unsafe /);
    expect(await store.has(digest)).toBe(false);
    await rm(join(root, 'inputs'));
    await mkdir(join(root, 'inputs'));
    await symlink(join(outside, `${digest}.png`), join(root, 'inputs', `${digest}.png`));
    expect(await refusal(store.read(digest))).toMatch(/^error\.inputs\.unsafe /);
  });

  it('follows the gallery when its root moves', async () => {
    const gallery = { root };
    const moving = new InputStore(gallery);
    const kept = await moving.put(await image('jpeg'));
    const elsewhere = await tempFolder('moved');
    try {
      gallery.root = elsewhere;
      expect(await moving.has(kept)).toBe(false);
      await moving.put(await store.read(kept));
      expect(await readdir(join(elsewhere, 'inputs'))).toEqual([`${kept.sha256}.jpg`]);
    } finally {
      await removeFolder(elsewhere);
    }
  });
});
