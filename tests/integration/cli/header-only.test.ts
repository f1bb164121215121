/**
 * The header-only path end to end: the CLI, on a host where no image decoder runs, saves each
 * image with its XMP, sized from its header check, its thumbnail marked pending, and says so once.
 * Then a host with a decoder (here native sharp, as the app has Chromium's) opens the same library,
 * is asked for the gallery, and makes the pending thumbnails; the records follow.
 */
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHeaderOnlyEngine } from '../../../electron/adapters/image-engines/header-only-engine';
import { systemClock } from '../../../electron/adapters/system-clock';
import { runCli } from '../../../electron/cli/main';
import { readImageProvenance } from '../../../electron/core/gallery/metadata/read';
import { openPictorCore } from '../../../electron/core/pictor-core';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import { galleryHandlers } from '../../../electron/ipc/gallery-handlers';
import type { ImageEngine } from '../../../electron/ports/image-engine';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { StaticCredentials } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let dir = '';
let service: DemoService;

beforeEach(async () => {
  dir = await tempFolder('header-only');
  service = await startDemoService({ durationMs: 100, imagesPerTask: 2, images: testImageEngine });
});
afterEach(async () => {
  await service.close();
  await removeFolder(dir);
});

async function generateWithoutDecoder(): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(
    [
      'generate',
      '--prompt',
      'a lighthouse at dusk',
      '--size',
      '96x64',
      '--base-url',
      service.url,
      '--data-dir',
      join(dir, 'data'),
      '--gallery-dir',
      join(dir, 'gallery'),
      '--poll-interval',
      '0.2',
    ],
    {
      env: { SERVICE_API_KEY: 'demo' },
      stdout: (text) => (out += text),
      stderr: (text) => (err += text),
      interrupt: new AbortController().signal,
      imageEngine: () => Promise.resolve(createHeaderOnlyEngine()),
    },
  );
  return { code, out, err };
}

/** The CLI's library, opened by a host whose image engine is `imageEngine`. */
function openLibrary(imageEngine: ImageEngine) {
  return openPictorCore({
    dataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetch,
    credentials: new StaticCredentials(service.url, 'demo'),
    clock: systemClock,
    imageEngine,
    ...bundledCoreWorkers(),
  });
}

describe('a CLI with no image decoder', () => {
  it('saves each image with its XMP and header size, thumbnail pending, and says so once', async () => {
    const run = await generateWithoutDecoder();
    expect(run.code, run.err).toBe(0);
    const files = run.out.split('\n').filter(Boolean);
    expect(files).toHaveLength(2);
    expect(run.err.match(/saved without a thumbnail/g)).toHaveLength(1);
    expect(run.err).toContain('2 image(s) saved without a thumbnail');
    for (const file of files) {
      const bytes = await readFile(file);
      expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: 96, height: 64 });
      expect(await readImageProvenance(bytes, 'png')).toMatchObject({
        ok: true,
        provenance: { prompt: 'a lighthouse at dusk' },
      });
      expect(await readdir(join(dirname(file), '.thumbs')).catch(() => [])).toEqual([]);
    }
    const sidecar = JSON.parse(await readFile(join(dirname(files[0]!), 'pictor.json'), 'utf8'));
    expect(sidecar.record.images).toMatchObject([
      { state: 'saved', width: 96, height: 64, thumbnailPending: true },
      { state: 'saved', width: 96, height: 64, thumbnailPending: true },
    ]);
    expect(sidecar.record.images[0].thumbnail).toBeUndefined();
  });

  it('the next host with a decoder makes the thumbnails when the gallery is shown', async () => {
    expect((await generateWithoutDecoder()).code).toBe(0);
    const core = await openLibrary(testImageEngine);
    try {
      expect(core.history.withPendingThumbnails(10)).toHaveLength(1);
      const made = new Promise<void>((resolve) => {
        core.engine.onDidUpdate((update) => {
          if (update.record.images.every((image) => image.thumbnail)) resolve();
        });
      });
      const handlers = galleryHandlers({
        core: core,
        shell: {} as never,
        emit: () => undefined,
        chooseExportFolder: () => Promise.resolve(null),
        trash: {} as never,
      });
      // Showing the gallery (its first page) starts the run; the records' updates say when done.
      await handlers['gallery:list']({}, { sender: {} } as never);
      await made;
      expect(core.history.withPendingThumbnails(10)).toEqual([]);
      const [record] = core.history.list({ limit: 1 }).items;
      for (const image of record!.images) {
        expect(image).toMatchObject({ state: 'saved', width: 96, height: 64 });
        expect(image.thumbnailPending).toBeUndefined();
        const thumb = await sharp(core.gallery.resolve(image.thumbnail!)).metadata();
        expect([thumb.format, thumb.width, thumb.height]).toEqual(['webp', 96, 64]);
      }
      // And the sidecar says so too (the record's edit writes it).
      await core.engine.stop();
      const sidecar = JSON.parse(
        await readFile(join(core.gallery.resolve(record!.folder!), 'pictor.json'), 'utf8'),
      );
      expect(sidecar.record.images[0].thumbnailPending).toBeUndefined();
      expect(sidecar.record.images[0].thumbnail).toBe(record!.images[0]!.thumbnail);
    } finally {
      await core.close();
    }
  });

  it('a host with no decoder leaves them pending and makes none', async () => {
    expect((await generateWithoutDecoder()).code).toBe(0);
    const core = await openLibrary(createHeaderOnlyEngine());
    try {
      expect(core.thumbnails.canMake).toBe(false);
      expect(await core.thumbnails.kick()).toEqual({ made: 0, refused: 0, left: 0 });
      expect(core.history.withPendingThumbnails(10)).toHaveLength(1);
    } finally {
      await core.close();
    }
  });
});
