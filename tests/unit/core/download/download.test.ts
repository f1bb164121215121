import { WRITE_BUFFER_BYTES } from '../../../../electron/core/download/write-buffers';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { expectState, useDownloadFixture } from './download-fixture';
import { makeImage, makeRecord, serve, tempFiles } from '../../../support/gallery-helpers';
import { downloadOptions, downloadWith } from '../../../support/pinned-helpers';
import { createPinnedFetch } from '../../../../electron/core/download/pinned-fetch';
import type { PinnedFetch, ResolvedAddress } from '../../../../electron/ports/http';
import { galleryOnServer } from '../../../support/gallery-with-intake';

const f = useDownloadFixture();

describe('saving images', () => {
  it.each([
    ['png', 'image/png', 'png'],
    ['jpeg', 'image/jpeg', 'jpg'],
    ['webp', 'image/webp', 'webp'],
  ] as const)(
    'saves a %s with its extension, size, bytes and a WebP thumbnail',
    async (format, mime, extension) => {
      const body = await makeImage(format, 800, 500);
      // The Content-Type is deliberately wrong: only the bytes count.
      const { record, outcome } = await f.download(
        f.server.route(`/ok.${format}`, serve(body, 'application/octet-stream')),
      );
      const saved = expectState(outcome, 'saved');
      const folder = f.gallery.folderFor(record);
      expect(saved).toMatchObject({ width: 800, height: 500, bytes: body.length, mime });
      expect(saved.file).toBe(`${folder}/image-1.${extension}`);
      expect(saved.thumbnail).toBe(`${folder}/.thumbs/image-1.webp`);
      // Buffer.equals: a deep toEqual over a megabyte takes seconds.
      expect((await readFile(f.gallery.resolve(saved.file))).equals(body)).toBe(true);
      const thumb = await sharp(f.gallery.resolve(saved.thumbnail ?? '')).metadata();
      expect(thumb).toMatchObject({ format: 'webp', width: 384, height: 240 });
    },
  );

  it('never enlarges a thumbnail of a small image', async () => {
    const small = await makeImage('png', 100, 60);
    const saved = expectState(
      (await f.download(f.server.route('/small.png', serve(small)))).outcome,
      'saved',
    );
    expect(await sharp(f.gallery.resolve(saved.thumbnail ?? '')).metadata()).toMatchObject({
      width: 100,
      height: 60,
    });
  });

  it('sends only the Accept header it needs, and no credentials', async () => {
    const url = f.server.route('/headers.png', serve(f.png));
    const before = f.server.requests.length;
    expectState((await f.download(url)).outcome, 'saved');
    const [request] = f.server.requests.slice(before);
    expect(request?.headers.accept).toBe('image/png,image/jpeg,image/webp,*/*;q=0.5');
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.headers.cookie).toBeUndefined();
  });

  it('passes only Accept, no credentials and manual redirects to the fetch port', async () => {
    const seen: { init: RequestInit; address: ResolvedAddress }[] = [];
    const real = createPinnedFetch();
    const spy: PinnedFetch = (url, init, address) => {
      seen.push({ init, address });
      return real(url, init, address);
    };
    const url = f.server.route('/spied.png', serve(f.png));
    const outcome = await downloadWith(
      downloadOptions(f.root, { imageFetch: spy }),
      url,
      f.server.baseUrl,
    );
    expectState(outcome, 'saved');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.address).toEqual({ address: '127.0.0.1', family: 4 });
    expect(seen[0]!.init).toMatchObject({ method: 'GET', redirect: 'manual', credentials: 'omit' });
    expect(new Headers(seen[0]!.init.headers).get('authorization')).toBeNull();
    expect([...new Headers(seen[0]!.init.headers).keys()]).toEqual(['accept']);
  });

  it('streams the body to disk a write buffer at a time instead of holding it in memory', async () => {
    const chunk = 64 * 1024;
    let offset = 0;
    const onDisk: number[] = [];
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          // What is on disk when the next chunk is asked for: everything received so far.
          const [temp] = await tempFiles(f.root);
          onDisk.push(temp ? (await stat(join(f.root, '.pictor-tmp', temp))).size : 0);
          if (offset >= f.png.length) return controller.close();
          controller.enqueue(f.png.subarray(offset, offset + chunk));
          offset += chunk;
        },
      },
      { highWaterMark: 0 },
    );
    const streaming = downloadOptions(f.root, {
      imageFetch: async () => new Response(body, { status: 200 }),
    });
    const outcome = await downloadWith(streaming, 'http://127.0.0.1/stream.png', f.server.baseUrl);
    expect(expectState(outcome, 'saved').bytes).toBe(f.png.length);
    expect(f.png.length).toBeGreaterThan(2 * WRITE_BUFFER_BYTES);
    // When chunk k is asked for, every whole buffer of the k chunks received is on disk: never
    // more than one buffer of the body is held.
    const received = onDisk.map((_, k) => Math.min(k * chunk, f.png.length));
    expect(onDisk.slice(1)).toEqual(
      received.slice(1).map((bytes) => Math.floor(bytes / WRITE_BUFFER_BYTES) * WRITE_BUFFER_BYTES),
    );
  });

  it('recreates a deleted .pictor-tmp instead of failing every download', async () => {
    await rm(join(f.root, '.pictor-tmp'), { recursive: true });
    const outcome = (await f.download(f.server.route('/no-temp.png', serve(f.png)))).outcome;
    expectState(outcome, 'saved');
  });

  it('logs the host only, never the signed URL, in success and failure', async () => {
    const lines: string[] = [];
    const record = (message: string, fields?: object) =>
      lines.push(message + JSON.stringify(fields));
    const logger = { debug: record, info: record, warn: record, error: record };
    const { intake: loggedIntake } = galleryOnServer(f.root, { logger });
    f.server.route('/signed-gone', (_req, res) => res.writeHead(410).end());
    const ok = await f.download(`${f.server.route('/signed.png', serve(f.png))}?sig=SECRET1`, {
      intake: loggedIntake,
    });
    const gone = await f.download(`${f.server.baseUrl}/signed-gone?sig=SECRET2`, {
      intake: loggedIntake,
    });
    expect([ok.outcome.state, gone.outcome.state]).toEqual(['saved', 'expired']);
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).toContain(new URL(f.server.baseUrl).host);
    expect(lines.join('\n') + JSON.stringify(gone.outcome)).not.toMatch(/SECRET|signed/);
  });

  it('replaces the files when the same index is downloaded again, even in another format', async () => {
    const record = makeRecord([f.server.route('/again', serve(f.png))]);
    expectState(await f.intake.downloadImage(record, 0, f.server.baseUrl), 'saved');
    expectState(await f.intake.downloadImage(record, 0, f.server.baseUrl), 'saved');
    const jpeg = await makeImage('jpeg', 64, 64);
    f.server.route('/again', serve(jpeg, 'image/png'));
    const saved = expectState(await f.intake.downloadImage(record, 0, f.server.baseUrl), 'saved');
    const folder = f.gallery.resolve(f.gallery.folderFor(record));
    expect((await readdir(folder)).sort()).toEqual(['.thumbs', 'image-1.jpg']);
    expect(await readdir(join(folder, '.thumbs'))).toEqual(['image-1.webp']);
    expect(saved.bytes).toBe(jpeg.length);
  });

  it('uses record.folder when the record already has one', async () => {
    const record = makeRecord([f.server.route('/kept.png', serve(f.png))], {
      folder: 'elsewhere/task-one',
    });
    const saved = expectState(await f.intake.downloadImage(record, 0, f.server.baseUrl), 'saved');
    expect(saved.file).toBe('elsewhere/task-one/image-1.png');
  });

  it('refuses a record.folder that leaves the gallery', async () => {
    const record = makeRecord([f.server.route('/escape.png', serve(f.png))], {
      folder: '../outside',
    });
    expectState(await f.intake.downloadImage(record, 0, f.server.baseUrl), 'invalid');
  });
});
