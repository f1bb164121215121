/**
 * An import keeps the thumbnail its image check made: every imported image was decoded once to be
 * checked, and that decode's WebP is written beside it, so the gallery does not decode it again
 * (no pending thumbnail). A host with no decoder still records it pending. Over real archives and
 * real images, with the engine's calls counted.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createHeaderOnlyEngine } from '../../../../../electron/adapters/image-engines/header-only-engine';
import { exportLibrary } from '../../../../../electron/core/library/archive/export-library';
import { importLibrary } from '../../../../../electron/core/library/archive/import-library';
import type { ImageEngine } from '../../../../../electron/ports/image-engine';
import { makeImage } from '../../../../support/gallery-helpers';
import { testImageEngine } from '../../../../support/image-engine';
import { addTask, useLibraries, type Library } from './library-fixture';
import { galleryOffline } from '../../../../support/gallery-with-intake';
import type { ImageIntake } from '../../../../../electron/core/download/image-intake';

const library = useLibraries();

/** `engine` with its thumbnail calls counted. */
function counted(engine: ImageEngine): { engine: ImageEngine; calls: () => number } {
  let calls = 0;
  return {
    engine: {
      ...engine,
      name: engine.name,
      thumbnail: (request) => {
        calls += 1;
        return engine.thumbnail(request);
      },
    },
    calls: () => calls,
  };
}

function galleryWith(root: string, engine: ImageEngine): ImageIntake {
  return galleryOffline(root, { imageEngine: engine }).intake;
}

async function archiveOf(from: Library): Promise<string> {
  const target = join(from.dir, 'export.zip');
  await exportLibrary({ root: from.root, history: from.history, target, pictorVersion: '9.9.9' });
  return target;
}

/** Every saved image's thumbnail, read back and measured. */
async function thumbnailsOf(to: Library) {
  const out: Array<{ pending: boolean; format?: string; width?: number; height?: number }> = [];
  for (const record of to.history.list({ limit: 50 }).items) {
    for (const image of record.images) {
      if (image.state !== 'saved') continue;
      if (!image.thumbnail) {
        out.push({ pending: image.thumbnailPending === true });
        continue;
      }
      const meta = await sharp(await readFile(to.gallery.resolve(image.thumbnail))).metadata();
      out.push({
        pending: image.thumbnailPending === true,
        format: meta.format,
        width: meta.width,
        height: meta.height,
      });
    }
  }
  return out;
}

describe('import keeps the thumbnail its check made', () => {
  it('writes each new task image’s thumbnail once, decoded once, in the record and on disk', async () => {
    const from = await library();
    await addTask(from, ['png', 'jpeg']);
    await addTask(from, ['webp']);
    const source = await archiveOf(from);
    const to = await library();
    const engine = counted(testImageEngine);
    const summary = await importLibrary({
      intake: galleryWith(to.root, engine.engine),
      history: to.history,
      source,
    });
    expect(summary).toMatchObject({ addedTasks: 2, addedImages: 3, refused: [] });
    expect(engine.calls()).toBe(3);
    const thumbs = await thumbnailsOf(to);
    expect(thumbs).toHaveLength(3);
    for (const thumb of thumbs) expect(thumb).toMatchObject({ pending: false, format: 'webp' });
    expect(to.history.withPendingThumbnails(10)).toEqual([]);
  });

  it('writes the thumbnail of an image merged into a known task', async () => {
    const from = await library();
    const task = await addTask(from, ['png']);
    const to = await library();
    await importLibrary({ intake: to.intake, history: to.history, source: from.root });
    // The same task elsewhere gained another picture at the same name: it merges as image 2.
    const other = await makeImage('png', 40, 20);
    await writeFile(join(from.root, ...(task.images[0]?.file ?? '').split('/')), other);
    const merged = await importLibrary({
      intake: to.intake,
      history: to.history,
      source: from.root,
    });
    expect(merged).toMatchObject({ addedImages: 1 });
    const second = to.history.get(task.localId)?.images[1];
    expect(second?.thumbnailPending).toBeUndefined();
    const meta = await sharp(
      await readFile(to.gallery.resolve(second?.thumbnail ?? '')),
    ).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 40, 20]);
  });

  it('leaves the thumbnail pending on a host with no decoder', async () => {
    const from = await library();
    await addTask(from, ['png']);
    const source = await archiveOf(from);
    const to = await library();
    await importLibrary({
      intake: galleryWith(to.root, createHeaderOnlyEngine()),
      history: to.history,
      source,
    });
    expect(await thumbnailsOf(to)).toEqual([{ pending: true }]);
  });
});
