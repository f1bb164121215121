/**
 * A thumbnail is encoded where its bytes stay in the page's renderer (encode-thumbnail.ts): no
 * canvas encoder that makes a Blob runs for it, in the page or in its decode workers. Every Blob's
 * bytes are copied into the browser process (in Electron, the main process) and copied back when
 * read: about 1 ms of that process's CPU per thumbnail, counted in the Download memory row's
 * page-side CPU. The encoders that make Blobs (OffscreenCanvas.convertToBlob,
 * HTMLCanvasElement.toBlob) are counted in the page and in each worker while thumbnails of every
 * format are made; a PNG job, still encoded in a worker, shows the count counts.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { ImageFormat } from '../../../electron/ports/image-engine';
import * as made from './image-fixtures';
import { usePageStand } from './page-setup';

const page = usePageStand(40_000);

/** Installs the count once in each realm (a worker's global, the page's window). */
const COUNT_BLOB_ENCODERS = `(() => {
  const g = globalThis;
  if (g.__blobEncodes !== undefined) return;
  g.__blobEncodes = 0;
  const wrap = (proto, name) => {
    if (!proto || typeof proto[name] !== 'function') return;
    const original = proto[name];
    proto[name] = function (...args) { g.__blobEncodes += 1; return original.apply(this, args); };
  };
  wrap(g.OffscreenCanvas && g.OffscreenCanvas.prototype, 'convertToBlob');
  wrap(g.HTMLCanvasElement && g.HTMLCanvasElement.prototype, 'toBlob');
})()`;
const READ_COUNT = '(() => globalThis.__blobEncodes ?? 0)()';

function rendererPage(): Page {
  const running = page.stand().page();
  if (!running) throw new Error('The image renderer is not running.');
  return running;
}

/** Counts in the page and every worker it runs now (each installed before it is read). */
async function blobEncodes(): Promise<number> {
  const renderer = rendererPage();
  // The page and its workers: each evaluates a script in its own global.
  const realms: { evaluate(script: string): Promise<unknown> }[] = [
    renderer,
    ...renderer.workers(),
  ];
  const counts = await Promise.all(
    realms.map(async (realm) => {
      await realm.evaluate(COUNT_BLOB_ENCODERS);
      return Number(await realm.evaluate(READ_COUNT));
    }),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

let fileNumber = 0;

async function thumbnailOf(format: ImageFormat, width: number, height: number) {
  const bytes = await made.encode(await made.photoPixels(width, height), width, height, format);
  fileNumber += 1;
  const file = join(page.setup().dir, `no-blob-${fileNumber}.${format}`);
  await writeFile(file, bytes);
  return page.stand().engine.thumbnail({
    file,
    header: made.headerOf(format, width, height),
    thumbnailSize: 384,
  });
}

describe('thumbnails and Blobs', () => {
  it('encodes the thumbnail of every format with no Blob, in the page or its workers', async () => {
    // The first job starts the renderer; the count goes into the page and its warm workers.
    expect((await thumbnailOf('png', 40, 30)).kind).toBe('thumbnail');
    const before = await blobEncodes();
    const formats = ['png', 'jpeg', 'webp'] as const;
    for (const format of formats) {
      const answer = await thumbnailOf(format, 640, 480);
      expect(answer.kind, format).toBe('thumbnail');
      if (answer.kind !== 'thumbnail') continue;
      expect([answer.width, answer.height]).toEqual([640, 480]);
      // A WebP file, whole: RIFF, its length, WEBP.
      const riff = Buffer.from(answer.webp);
      expect(riff.subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(riff.readUInt32LE(4) + 8).toBe(riff.length);
      expect(riff.subarray(8, 12).toString('latin1')).toBe('WEBP');
    }
    expect(await blobEncodes()).toBe(before);
    // The count counts: a PNG job is encoded in a worker through a Blob.
    const png = await made.encode(await made.photoPixels(40, 30), 40, 30, 'png');
    await page.stand().engine.toPng(png);
    expect(await blobEncodes()).toBeGreaterThan(before);
  });
});
