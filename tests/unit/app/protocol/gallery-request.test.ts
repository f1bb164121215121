import { promises as fsPromises, readFileSync, realpathSync } from 'node:fs';
import { mkdir, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  resolveGalleryRequest,
  serveGalleryRequest,
} from '../../../../electron/app/protocol/gallery-request';
import { RealRoots } from '../../../../electron/app/protocol/real-roots';
import { defaultContainment } from '../../../../electron/core/fs/open-inside';
import { readExactly } from '../../../../electron/app/protocol/served-file';
import { galleryUrl } from '../../../../shared/ipc/api';
import { makeProtocolFixture, type ProtocolFixture } from './protocol-fixture';
import { fifoMaker, makeFifo, needing } from '../../../support/tools';

let fixture: ProtocolFixture;
beforeAll(async () => {
  fixture = await makeProtocolFixture();
});
afterAll(async () => {
  await fixture.remove();
});

const G = 'pictor-gallery://gallery';
const FIFO = fifoMaker();
/** Whether the kernel names an open descriptor's file (open-inside.ts's `descriptor` check). */
const DESCRIPTOR_PATHS = defaultContainment() === 'descriptor';

/** The status a gallery request for `url` is answered with under `root`, and its body. */
async function answer(root: string, url: string): Promise<{ status: number; body: Buffer }> {
  const response = await serveGalleryRequest(new Request(url), root, { roots: new RealRoots() });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

describe('gallery requests against a real folder', () => {
  it.each([
    ['2024/05/task/image-0.png', '2024/05/task/image-0.png', 'image/png'],
    ['2024/05/task/.thumbs/image-0.webp', '2024/05/task/.thumbs/image-0.webp', 'image/webp'],
    ['2024/05/task/IMAGE-1.PNG', '2024/05/task/IMAGE-1.PNG', 'image/png'],
    ['link-inside.png', '2024/05/task/image-0.png', 'image/png'],
  ])('serves %s', async (path, realFile, contentType) => {
    const response = await serveGalleryRequest(new Request(`${G}/${path}`), fixture.root);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(contentType);
    const served = Buffer.from(await response.arrayBuffer());
    expect(served.equals(readFileSync(join(fixture.root, realFile)))).toBe(true);
  });

  it('asks for the path as named inside the root as given, and the root’s real path', async () => {
    const result = await resolveGalleryRequest(fixture.root, `${G}/link-inside.png`);
    expect(result).toEqual({
      ok: true,
      file: join(fixture.root, 'link-inside.png'),
      realRoot: Buffer.from(realpathSync(fixture.root)),
      contentType: 'image/png',
    });
  });

  it('serves what galleryUrl() builds, spaces and accents included', async () => {
    const { status, body } = await answer(fixture.root, galleryUrl('a b/ünïcode.png'));
    expect(status).toBe(200);
    expect(body.equals(fixture.png)).toBe(true);
  });

  it('serves from a root that is itself a symlink', async () => {
    const root = join(fixture.base, 'gallery-link');
    expect((await answer(root, `${G}/2024/05/task/image-0.png`)).status).toBe(200);
  });

  it.each([
    // Traversal, raw and encoded, towards a file that really exists outside the root.
    ['../outside/secret.png', 403],
    ['2024/../../outside/secret.png', 403],
    ['%2e%2e/outside/secret.png', 403],
    ['%2E%2e/outside/secret.png', 403],
    ['.%2e/outside/secret.png', 403],
    ['%252e%252e/outside/secret.png', 403],
    ['..%2foutside%2fsecret.png', 403],
    ['%2e%2e%2foutside%2fsecret.png', 403],
    ['..%5coutside%5csecret.png', 403],
    ['..\\outside\\secret.png', 403],
    ['%2F..%2Foutside%2Fsecret.png', 403],
    // Absolute paths and drive letters (see also the test below with the real outside path).
    ['/etc/passwd', 400],
    ['%2Fetc%2Fpasswd.png', 403],
    ['C:/outside/secret.png', 403],
    ['C%3A%5Coutside%5Csecret.png', 403],
    // NUL, empty, query tricks.
    ['2024/05/task/image-0.png%00.txt', 400],
    ['', 400],
    ['2024/05/task/image-0.png?../../outside/secret.png', 400],
    ['2024/05/task/image-0.png#x', 400],
    // Symlinks out of the folder, loops and dangling links.
    ['link-outside.png', 403],
    ['linkdir/secret.png', 403],
    ['loop.png', 403],
    ['dangling.png', 404],
    // Not images, or not ready.
    ['2024/05/task/pictor.json', 403],
    ['notes.txt', 403],
    ['link-to-text.png', 403],
    ['.pictor-tmp/half.png', 403],
    ['2024/05/task/image-9.png', 404],
    ['2024/05/task/image-0.png/x.png', 404],
  ])('refuses %j with %i', async (path, status) => {
    // As asked (the address as written: a Request would already have taken its dots out), then
    // as opened.
    const asked = await resolveGalleryRequest(fixture.root, `${G}/${path}`);
    const answered = asked.ok ? (await answer(fixture.root, `${G}/${path}`)).status : asked.status;
    expect(answered).toBe(status);
  });

  it('refuses the absolute path of a real file outside, raw or encoded', async () => {
    const secret = join(fixture.outside, 'secret.png');
    expect(await resolveGalleryRequest(fixture.root, `${G}/${secret}`)).toMatchObject({
      ok: false,
      status: 400,
    });
    const encoded = `${G}/${encodeURIComponent(secret)}`;
    expect(await resolveGalleryRequest(fixture.root, encoded)).toMatchObject({
      ok: false,
      status: 403,
    });
  });

  it.each([
    ['pictor-gallery://other/2024/05/task/image-0.png'],
    ['pictor-gallery://user@gallery/2024/05/task/image-0.png'],
    ['pictor-app://gallery/2024/05/task/image-0.png'],
  ])('refuses another host or scheme: %s', async (url) => {
    expect(await resolveGalleryRequest(fixture.root, url)).toMatchObject({
      ok: false,
      status: 400,
    });
  });

  it.each([[''], ['relative/gallery'], ['/no/such/folder/anywhere']])(
    'answers 404 when the root %j is not a usable folder',
    async (root) => {
      const result = await resolveGalleryRequest(root, `${G}/2024/05/task/image-0.png`);
      expect(result).toMatchObject({ ok: false, status: 404 });
    },
  );
});

describe('serveGalleryRequest', () => {
  const url = `${G}/2024/05/task/image-0.png`;

  it('streams the file with its type, length, no-cache and an ETag', async () => {
    const response = await serveGalleryRequest(new Request(url), fixture.root);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-length')).toBe(String(fixture.png.length));
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('etag')).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect(response.body).toBeInstanceOf(ReadableStream);
    expect(Buffer.from(await response.arrayBuffer()).equals(fixture.png)).toBe(true);
  });

  it('answers 304 to a matching If-None-Match, and 200 once the file is replaced', async () => {
    const dir = join(fixture.root, 'replace');
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'image-0.png');
    await writeFile(file, fixture.png);
    const target = `${G}/replace/image-0.png`;
    const first = await serveGalleryRequest(new Request(target), fixture.root);
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const again = await serveGalleryRequest(
      new Request(target, { headers: { 'If-None-Match': etag } }),
      fixture.root,
    );
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    await writeFile(file, Buffer.concat([fixture.png, Buffer.from([0])]));
    const replaced = await serveGalleryRequest(
      new Request(target, { headers: { 'If-None-Match': etag } }),
      fixture.root,
    );
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get('etag')).not.toBe(etag);
    expect((await replaced.arrayBuffer()).byteLength).toBe(fixture.png.length + 1);
    await rm(dir, { recursive: true });
  });

  it('looks a gallery image up once: the one open serves the check and the body', async () => {
    const roots = new RealRoots();
    const realRoot = realpathSync(fixture.root);
    await answer(fixture.root, url);
    const realpath = vi.spyOn(fsPromises, 'realpath');
    const opened = vi.spyOn(fsPromises, 'open');
    try {
      for (const path of ['2024/05/task/image-0.png', '2024/05/task/.thumbs/image-0.webp']) {
        realpath.mockClear();
        opened.mockClear();
        const response = await serveGalleryRequest(new Request(`${G}/${path}`), fixture.root, {
          roots,
        });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        // The root's real path may be asked again (real-roots.ts holds it a second). A file's
        // only where the kernel does not name what was opened (no /proc), and after the open.
        const asked = realpath.mock.calls.map(([at]) => String(at));
        const files = asked.filter((at) => at !== fixture.root);
        expect(files, path).toEqual(DESCRIPTOR_PATHS ? [] : [join(fixture.root, path)]);
        const fileAsked = realpath.mock.invocationCallOrder[asked.indexOf(files[0] ?? '')];
        if (fileAsked !== undefined) {
          expect(fileAsked).toBeGreaterThan(opened.mock.invocationCallOrder[0]!);
        }
        expect(
          opened.mock.calls.map(([at]) => String(at)),
          path,
        ).toEqual([join(realRoot, path)]);
      }
    } finally {
      realpath.mockRestore();
      opened.mockRestore();
    }
  });

  it('answers HEAD with headers and no body', async () => {
    const response = await serveGalleryRequest(new Request(url, { method: 'HEAD' }), fixture.root);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(fixture.png.length));
    expect(response.body).toBeNull();
  });

  it.each(['POST', 'PUT', 'DELETE'])('answers %s with 405', async (method) => {
    const response = await serveGalleryRequest(new Request(url, { method }), fixture.root);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers a refusal with its status and a fixed sentence, never the file', async () => {
    const response = await serveGalleryRequest(new Request(`${G}/link-outside.png`), fixture.root);
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    expect(text).toBe('The file is outside the folder.');
  });

  it('refuses a folder named like an image with 404', async () => {
    const response = await serveGalleryRequest(new Request(`${G}/folder.png`), fixture.root);
    expect(response.status).toBe(404);
  });

  it.skipIf(!FIFO.path)(
    needing(FIFO, 'refuses a FIFO named like an image at once, without waiting for a writer'),
    async () => {
      const fifo = join(fixture.root, 'pipe.png');
      makeFifo(FIFO, fifo);
      try {
        const response = await serveGalleryRequest(new Request(`${G}/pipe.png`), fixture.root);
        expect(response.status).toBe(404);
      } finally {
        await rm(fifo, { force: true });
      }
    },
  );

  it('sends a small file whole and streams a large one, each byte for byte', async () => {
    const dir = join(fixture.root, 'sizes');
    await mkdir(dir, { recursive: true });
    const large = Buffer.alloc(3 * 1024 * 1024 + 7);
    for (let i = 0; i < large.length; i += 1) large[i] = (i * 31) & 0xff;
    await writeFile(join(dir, 'large.png'), large);
    await writeFile(join(dir, 'small.png'), fixture.png);
    for (const [name, bytes] of [
      ['large.png', large],
      ['small.png', fixture.png],
    ] as const) {
      const response = await serveGalleryRequest(new Request(`${G}/sizes/${name}`), fixture.root);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBe(String(bytes.length));
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    }
    await rm(dir, { recursive: true });
  });

  it('reads a file whole only at the size fstat saw: grown or shrunk since, it is refused', async () => {
    const file = join(fixture.root, 'sized.png');
    const bytes = Buffer.from('0123456789');
    await writeFile(file, bytes);
    const handle = await open(file, 'r');
    try {
      expect((await readExactly(handle, 10))?.equals(bytes)).toBe(true);
      // Opened at 4 bytes and 10 there now (it grew): refused, and no more than 5 bytes asked for.
      const asked: number[] = [];
      const counting = {
        read: (buffer: Buffer, offset: number, length: number, position: number) => {
          asked.push(length);
          return handle.read(buffer, offset, length, position);
        },
      } as unknown as FileHandle;
      expect(await readExactly(counting, 4)).toBeNull();
      expect(asked.reduce((sum, length) => sum + length, 0)).toBeLessThanOrEqual(5);
      // Opened at 20 bytes and 10 there now (it shrank): refused, never padded.
      expect(await readExactly(handle, 20)).toBeNull();
      expect((await readExactly(handle, 0)) === null).toBe(true);
    } finally {
      await handle.close();
      await rm(file);
    }
  });

  it('reads the root per call, so a moved gallery is served at once', async () => {
    const other = join(fixture.base, 'outside');
    const response = await serveGalleryRequest(new Request(`${G}/secret.png`), other);
    expect(response.status).toBe(200);
    const refused = await serveGalleryRequest(new Request(`${G}/secret.png`), fixture.root);
    expect(refused.status).toBe(404);
  });
});
