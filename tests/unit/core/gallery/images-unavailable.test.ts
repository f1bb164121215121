/**
 * When the image code cannot load (core/images), a download still lands on disk: the image is
 * saved as it came, with no thumbnail and no size, and nothing is left in the temp folder. The
 * worker is a real thread whose loading fails, as a damaged install's would.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gallery } from '../../../../electron/core/gallery/gallery';
import { ImageWorkers } from '../../../../electron/core/images/image-workers';
import { expectState, useDownloadFixture } from './download-fixture';
import { makeImage, serve } from '../../../support/gallery-helpers';

const f = useDownloadFixture();
let dir = '';
let images: ImageWorkers;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pictor-no-images-'));
  const worker = join(dir, 'broken-worker.mjs');
  await writeFile(worker, "throw new Error('Could not load the sharp module');\n");
  images = new ImageWorkers({ workerUrl: pathToFileURL(worker) });
});

afterAll(async () => {
  await images.close();
  await rm(dir, { recursive: true, force: true });
});

describe('downloads without the image code', () => {
  it.each(['png', 'jpeg', 'webp'] as const)(
    'saves a %s as it came, without a thumbnail or a size',
    async (format) => {
      const gallery = new Gallery({ root: f.root, fetch, images });
      await gallery.init();
      const body = await makeImage(format, 300, 200);
      const { record, outcome } = await f.download(
        f.server.route(`/plain.${format}`, serve(body)),
        { gallery },
      );
      const saved = expectState(outcome, 'saved');
      expect(saved.thumbnail).toBeUndefined();
      expect(saved.width).toBeUndefined();
      expect((await readFile(gallery.resolve(saved.file))).equals(body)).toBe(true);
      const folder = gallery.resolve(gallery.folderFor(record));
      expect(await readdir(join(folder, '.thumbs')).catch(() => [])).toEqual([]);
      expect(images.status()).toMatchObject({ state: 'unavailable' });
    },
  );

  it('still refuses a file that is not an image at all (its first bytes say so)', async () => {
    const gallery = new Gallery({ root: f.root, fetch, images });
    await gallery.init();
    const { outcome } = await f.download(
      f.server.route('/text', serve(Buffer.from('<html>not an image</html>'))),
      { gallery },
    );
    expect(outcome.state).toBe('invalid');
  });
});
