/**
 * A compromised page asks `pictor-gallery://` for an image by its path while the app holds a key,
 * and the file carries that key in its own metadata (a task kept under a key-carrying id before
 * the sweep rewrote its images, an image saved before downloads were searched, a file put in the
 * folder by hand): every carrier of download-metadata-keys.ts, every encoding the key finder
 * knows, real PNG/JPEG/WebP files in a real gallery folder. The protocol used to serve the file
 * as it is; now it serves it without the metadata that carries the key (app/protocol/
 * held-key-file.ts), the pixels the same, whole for a Range, a HEAD's length the body's, never a
 * 304 for the copy the page kept of the file as it was; a key where nothing can go is a refusal.
 * A request waits for the keys to be known (the page's guard, kept-id-page.ts). Controls: with no
 * key held, or a file without one, the file is served byte for byte under its own validator.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeptIdPage } from '../../../electron/app/kept-id-page';
import {
  type GalleryServeOptions,
  READ_WHOLE_BYTES,
  serveGalleryRequest,
} from '../../../electron/app/protocol/gallery-request';
import { ReadBudget } from '../../../electron/app/protocol/read-budget';
import { RealRoots } from '../../../electron/app/protocol/real-roots';
import { pngChunk } from '../../../electron/core/gallery/metadata/png-meta';
import { galleryUrl } from '../../../shared/ipc/api';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import {
  bytesOf,
  keyedImages,
  paletteSpelling,
  plainImages,
  type Plain,
  withPngChunk,
} from './download-metadata-keys';
import { ENCODING_NAMES, ENCODINGS, keyScanner } from './key-encodings';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = QUIRKY_KEYS.alice;
const EXTENSION = { png: 'png', jpeg: 'jpg', webp: 'webp' } as const;

const leaks = (bytes: Buffer) =>
  keyScanner(KEY).leaks(`${bytes.toString('latin1')}\n${bytes.toString('utf8')}`);

let root: string;
let plain: Plain;
let files = 0;

beforeAll(async () => {
  root = await tempFolder('protocol-keys');
  plain = await plainImages();
});
afterAll(async () => {
  await removeFolder(root);
});

/** `bytes` as a task's image in the gallery; its path inside the root. */
async function place(bytes: Buffer, extension: string): Promise<string> {
  files += 1;
  const folder = `2024/05/2024-05-01_120000_kept_${files}`;
  await mkdir(join(root, folder), { recursive: true });
  await writeFile(join(root, folder, `image-1.${extension}`), bytes);
  return `${folder}/image-1.${extension}`;
}

/** The page's guard of the running app, its keys known: what the adapter hands the protocol. */
function guardHolding(keys: readonly string[]): KeptIdPage {
  const page = new KeptIdPage();
  page.setKeys(keys);
  return page;
}

/** A request as a page would make it, served with the keys `page` knows. */
function ask(
  path: string,
  page: KeptIdPage,
  init: RequestInit = {},
  options: GalleryServeOptions = {},
): Promise<Response> {
  return serveGalleryRequest(new Request(galleryUrl(path), init), root, {
    heldKeys: () => page.heldKeys(),
    roots: new RealRoots(),
    ...options,
  });
}

const bodyOf = async (response: Response) => Buffer.from(await response.arrayBuffer());
const pixels = async (bytes: Buffer) => (await sharp(bytes).raw().toBuffer()).toString('hex');

describe('a key in an image served to the page', () => {
  it.each(ENCODING_NAMES)(
    'in %s: no carrier reaches the page, the pixels the same',
    async (name) => {
      const said = ENCODINGS[name]!(KEY, 1);
      const page = guardHolding([KEY]);
      for (const [carrier, { kind, bytes }] of Object.entries(keyedImages(plain, said))) {
        const path = await place(bytes, EXTENSION[kind]);
        const response = await ask(path, page);
        const body = await bodyOf(response);
        expect(response.status, carrier).toBe(200);
        expect(leaks(body), carrier).toEqual([]);
        expect(body.equals(bytes), `${carrier}: the file served as it is`).toBe(false);
        expect(await pixels(body), carrier).toBe(await pixels(bytes));
        expect(response.headers.get('content-length'), carrier).toBe(String(body.length));
      }
      expect(Object.keys(keyedImages(plain, said)).length).toBeGreaterThan(5);
    },
  );

  it('a task kept under a key-carrying id: its packet names the id; served without it', async () => {
    const packet = Buffer.from(`pictor:taskId\0{"taskId":"task-${KEY}-1","prompt":"kept"}`);
    const bytes = withPngChunk(plain.png, pngChunk('tEXt', packet));
    expect(leaks(bytes)).not.toEqual([]);
    const path = await place(bytes, 'png');
    const body = await bodyOf(await ask(path, guardHolding([KEY])));
    expect(leaks(body)).toEqual([]);
    expect(await pixels(body)).toBe(await pixels(bytes));
  });

  it('a file past the size read whole (streamed when no key is held) is judged all the same', async () => {
    const raw = { raw: { width: 700, height: 600, channels: 3 as const } };
    const big = await sharp(randomBytes(700 * 600 * 3), raw)
      .png({ compressionLevel: 0 })
      .toBuffer();
    const bytes = withPngChunk(big, pngChunk('tEXt', Buffer.from(`Comment\0${KEY}`)));
    expect(bytes.length).toBeGreaterThan(READ_WHOLE_BYTES);
    const path = await place(bytes, 'png');
    // The protocol's budget full: the read is held in the held-key one.
    const full = new ReadBudget(1024, 1);
    const body = await bodyOf(await ask(path, guardHolding([KEY]), {}, { reads: full }));
    expect(body.length).toBe(bytes.length - (12 + 8 + KEY.length));
    expect(leaks(body)).toEqual([]);
  });

  it('a Range is answered with the served bytes whole; a HEAD with their length', async () => {
    const { kind, bytes } = keyedImages(plain, KEY)['JPEG comment']!;
    const path = await place(bytes, EXTENSION[kind]);
    const page = guardHolding([KEY]);
    const whole = await bodyOf(await ask(path, page));
    expect(leaks(whole)).toEqual([]);
    for (const range of ['bytes=0-10', 'bytes=2-', 'bytes=-20', 'bytes=0-1,5-9']) {
      const response = await ask(path, page, { headers: { Range: range } });
      expect(response.status, range).toBe(200);
      expect(response.headers.get('content-range'), range).toBeNull();
      expect((await bodyOf(response)).equals(whole), range).toBe(true);
    }
    const head = await ask(path, page, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(whole.length));
    expect(await head.arrayBuffer()).toHaveProperty('byteLength', 0);
  });

  it("the page's copy of the file as it was is never confirmed; the served bytes' copy is", async () => {
    const { bytes } = keyedImages(plain, KEY)['PNG tEXt']!;
    const path = await place(bytes, 'png');
    const before = await ask(path, guardHolding([]));
    const kept = before.headers.get('etag')!;
    expect((await bodyOf(before)).equals(bytes)).toBe(true);
    const page = guardHolding([KEY]);
    const revalidated = await ask(path, page, { headers: { 'If-None-Match': kept } });
    expect(revalidated.status).toBe(200);
    expect(leaks(await bodyOf(revalidated))).toEqual([]);
    const served = revalidated.headers.get('etag')!;
    expect(served).not.toBe(kept);
    const again = await ask(path, page, { headers: { 'If-None-Match': served } });
    expect(again.status).toBe(304);
  });

  it('a key where nothing can go (a PNG palette) is refused, the refusal naming no key', async () => {
    const path = await place(paletteSpelling(bytesOf(KEY)), 'png');
    const response = await ask(path, guardHolding([KEY]));
    expect(response.status).toBe(403);
    expect(leaks(await bodyOf(response))).toEqual([]);
  });

  it('a request made before the keys are known waits for them', async () => {
    const { bytes } = keyedImages(plain, KEY)['WebP chunk of its own']!;
    const path = await place(bytes, 'webp');
    const page = new KeptIdPage();
    let settled = false;
    const answer = ask(path, page).then((response) => ((settled = true), response));
    // Another request, with no key to wait for, is answered meanwhile: the first still waits.
    expect((await ask(path, guardHolding([]))).status).toBe(200);
    expect(settled).toBe(false);
    page.setKeys([KEY]);
    expect(leaks(await bodyOf(await answer))).toEqual([]);
  });
});

describe('controls', () => {
  it('no key held: the file byte for byte, under its own validator', async () => {
    const { bytes } = keyedImages(plain, KEY)['JPEG XMP (APP1)']!;
    const path = await place(bytes, 'jpg');
    const response = await ask(path, guardHolding([]));
    expect((await bodyOf(response)).equals(bytes)).toBe(true);
  });

  it('a key held, a file without it: the file byte for byte, under its own validator', async () => {
    const path = await place(plain.webpExif, 'webp');
    const bare = await ask(path, guardHolding([]));
    const response = await ask(path, guardHolding([KEY, QUIRKY_KEYS.bob]));
    expect((await bodyOf(response)).equals(plain.webpExif)).toBe(true);
    expect(response.headers.get('etag')).toBe(bare.headers.get('etag'));
  });
});
