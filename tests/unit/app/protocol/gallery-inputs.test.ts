/**
 * The gallery protocol in the input store's folder (`inputs/`): a stored input is served by its
 * name (`<sha256>.<png|jpg|webp>`), read-only; anything else in that folder (another name, a
 * subfolder, the folder itself in another case, a link named like an input that leads out of
 * the gallery) is refused, and nothing is ever written through the protocol.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  resolveGalleryRequest,
  serveGalleryRequest,
} from '../../../../electron/app/protocol/gallery-request';
import { InputStore } from '../../../../electron/core/inputs/input-store';
import { galleryUrl } from '../../../../shared/ipc/api';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const G = 'pictor-gallery://gallery';
let root: string;
let outside: string;
let png: Buffer;
let stored: string;

beforeAll(async () => {
  root = await tempFolder('gallery-inputs');
  outside = await tempFolder('gallery-outside');
  png = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#123' } })
    .png()
    .toBuffer();
  const store = new InputStore({ root });
  stored = store.relativePath(await store.put(png));
  const inputs = join(root, 'inputs');
  await writeFile(join(inputs, 'notes.png'), png);
  await mkdir(join(inputs, 'sub'));
  await writeFile(join(inputs, 'sub', `${'a'.repeat(64)}.png`), png);
  await writeFile(join(outside, 'secret.png'), png);
  await symlink(join(outside, 'secret.png'), join(inputs, `${'b'.repeat(64)}.png`));
});
afterAll(async () => {
  await removeFolder(root);
  await removeFolder(outside);
});

describe('stored inputs on the gallery scheme', () => {
  it('serves a stored input by the address its path makes, and only for reading', async () => {
    const url = galleryUrl(stored);
    expect(url).toMatch(/^pictor-gallery:\/\/gallery\/inputs\/[0-9a-f]{64}\.png$/);
    expect(await resolveGalleryRequest(root, url)).toEqual({
      ok: true,
      file: join(root, ...stored.split('/')),
      realRoot: Buffer.from(realpathSync(root)),
      contentType: 'image/png',
    });
    const served = await serveGalleryRequest(new Request(url), root);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
    for (const method of ['PUT', 'POST', 'DELETE']) {
      const refused = await serveGalleryRequest(new Request(url, { method, body: 'x' }), root);
      expect(refused.status).toBe(405);
    }
  });

  it.each([
    ['another name', 'inputs/notes.png'],
    ['a subfolder', `inputs/sub/${'a'.repeat(64)}.png`],
    ['the folder itself', 'inputs/x'],
    ['the folder in another case', 'INPUTS/notes.png'],
    ['a digest of the wrong case', `inputs/${'A'.repeat(64)}.png`],
    ['a digest with another extension', `inputs/${'a'.repeat(64)}.gif`],
  ])('refuses %s', async (_what, path) => {
    const result = await resolveGalleryRequest(root, `${G}/${path}`);
    expect(result).toMatchObject({ ok: false, status: 403 });
  });

  it('refuses a link named like a stored input that leads out of the gallery', async () => {
    const served = await serveGalleryRequest(
      new Request(`${G}/inputs/${'b'.repeat(64)}.png`),
      root,
    );
    expect(served.status).toBe(403);
  });

  it('leaves the rest of the gallery as it was', async () => {
    await mkdir(join(root, '2026', '01'), { recursive: true });
    await writeFile(join(root, '2026', '01', 'inputs.png'), png);
    const result = await resolveGalleryRequest(root, `${G}/2026/01/inputs.png`);
    expect(result).toMatchObject({ ok: true, contentType: 'image/png' });
  });
});
