/**
 * Every kind of answer both schemes give, to a hostile page's requests: each carries
 * `X-Content-Type-Options: nosniff` and a Content-Security-Policy, so that no answer, shown as a
 * document by any way a later change might open, runs anything: the app's own files carry the
 * renderer's policy, every other answer (a gallery image, a 304, a refusal, a 405, a 503) one
 * that allows nothing and sandboxes the document. A gallery file whose bytes are HTML or SVG
 * under an image name is served as the image type, never sniffed. Range headers of every shape
 * are not honoured: the whole file, once, as a 200.
 *
 * Real files (real PNGs), the real protocol code; the only stand-in is Electron handing the
 * Request over.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveAppRequest } from '../../../electron/app/protocol/app-request';
import { RENDERER_CSP } from '../../../electron/app/protocol/csp';
import { serveGalleryRequest } from '../../../electron/app/protocol/gallery-request';
import { RealRoots } from '../../../electron/app/protocol/real-roots';
import { StreamSlots } from '../../../electron/core/fs';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const G = 'pictor-gallery://gallery';
const A = 'pictor-app://app';

let base: string;
let gallery: string;
let bundle: string;
let png: Buffer;

beforeAll(async () => {
  base = await tempFolder('protocol-answers');
  gallery = join(base, 'gallery');
  bundle = join(base, 'renderer');
  await mkdir(join(gallery, '2024'), { recursive: true });
  await mkdir(bundle, { recursive: true });
  png = await sharp({ create: { width: 5, height: 3, channels: 3, background: '#123456' } })
    .png()
    .toBuffer();
  await writeFile(join(gallery, '2024', 'image-0.png'), png);
  await writeFile(join(gallery, 'page.png'), '<html><script>alert(1)</script></html>');
  await writeFile(
    join(gallery, 'vector.webp'),
    '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
  );
  await writeFile(join(gallery, 'vector.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(bundle, 'index.html'), '<!doctype html><title>app</title>');
  await writeFile(join(bundle, 'app.js'), 'export {};');
});

afterAll(async () => {
  await removeFolder(base);
});

function gallerySays(url: string, init: RequestInit = {}, streams?: StreamSlots) {
  return serveGalleryRequest(new Request(url, init), gallery, {
    roots: new RealRoots(),
    ...(streams ? { streams } : {}),
  });
}

/** The policy of an answer that is not the app's own page: nothing allowed, sandboxed. */
function expectInert(response: Response): void {
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toMatch(/(^|; )default-src 'none'(;|$)/);
  expect(csp).toMatch(/(^|; )sandbox(;|$)/);
}

describe('every answer of the gallery scheme is inert as a document', () => {
  it('an image (GET and HEAD), and the same one again (304)', async () => {
    const got = await gallerySays(`${G}/2024/image-0.png`);
    expect(got.status).toBe(200);
    expectInert(got);
    expect(Buffer.from(await got.arrayBuffer()).equals(png)).toBe(true);
    expectInert(await gallerySays(`${G}/2024/image-0.png`, { method: 'HEAD' }));
    const etag = got.headers.get('etag') ?? '';
    const again = await gallerySays(`${G}/2024/image-0.png`, {
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    expectInert(again);
  });

  it.each([
    ['a path that leaves the folder', `${G}/%2e%2e%2f2024%2fimage-0.png`, 403],
    ['an SVG', `${G}/vector.svg`, 403],
    ['no such file', `${G}/2024/none.png`, 404],
    ['another host', 'pictor-gallery://other/2024/image-0.png', 400],
  ])('a refusal: %s', async (_what, url, status) => {
    const response = await gallerySays(url);
    expect(response.status).toBe(status);
    expectInert(response);
  });

  it.each(['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'])('%s: 405', async (method) => {
    const response = await gallerySays(`${G}/2024/image-0.png`, {
      method,
      ...(method === 'POST' || method === 'PUT' || method === 'PATCH' ? { body: 'x' } : {}),
    });
    expect(response.status).toBe(405);
    expectInert(response);
  });

  it('too many requests waiting: 503', async () => {
    const streams = new StreamSlots(1, { maxWaiting: 0, idleMs: 30_000 });
    const held = await streams.take();
    const response = await gallerySays(`${G}/2024/image-0.png`, {}, streams);
    held?.release();
    expect(response.status).toBe(503);
    expectInert(response);
  });

  it('HTML or SVG under an image name is served as the image type, not sniffed', async () => {
    for (const [path, type] of [
      ['page.png', 'image/png'],
      ['vector.webp', 'image/webp'],
    ]) {
      const response = await gallerySays(`${G}/${path}`);
      expect(response.headers.get('content-type')).toBe(type);
      expectInert(response);
    }
  });

  it.each([
    ['one byte', 'bytes=0-0'],
    ['a suffix', 'bytes=-5'],
    ['an open end', 'bytes=5-'],
    ['a negative start', 'bytes=-1-2'],
    ['overlapping ranges', 'bytes=0-1,1-2,0-1'],
    ['500 ranges', `bytes=${Array.from({ length: 500 }, (_, i) => `${i}-${i}`).join(',')}`],
    ['a huge end', 'bytes=0-99999999999999999999'],
    ['a huge start', 'bytes=99999999999999999999-'],
    ['another unit', 'items=0-1'],
  ])('Range of %s: the whole file, once, as a 200', async (_what, range) => {
    const response = await gallerySays(`${G}/2024/image-0.png`, { headers: { Range: range } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-range')).toBeNull();
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);
  });
});

describe('every answer of the app scheme', () => {
  it('its own files carry the renderer’s policy', async () => {
    for (const path of ['index.html', 'app.js', '']) {
      const response = await serveAppRequest(new Request(`${A}/${path}`), bundle);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toBe(RENDERER_CSP);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it.each([
    ['no such file', `${A}/none.js`, 'GET', 404],
    ['a path that leaves the folder', `${A}/..%2f..%2fetc%2fpasswd.txt`, 'GET', 403],
    ['a query', `${A}/index.html?x`, 'GET', 400],
    ['a write', `${A}/index.html`, 'POST', 405],
  ])('a refusal is inert: %s', async (_what, url, method, status) => {
    const init: RequestInit = method === 'POST' ? { method, body: 'x' } : { method };
    const response = await serveAppRequest(new Request(url, init), bundle);
    expect(response.status).toBe(status);
    expectInert(response);
  });
});
