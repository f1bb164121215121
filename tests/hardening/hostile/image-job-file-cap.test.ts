/**
 * An image job's file is opened again when the page asks for its bytes (image-job-sources.ts),
 * after the header check opened it within the gallery's byte cap. Another local user who can
 * write the gallery folder swaps the file in between for one of several GB (a sparse file costs
 * no disk): the job served it whole, each 16 MiB read pinned in main by the job's lent buffers
 * until the page answered. Now the job's own open holds it to the cap every gallery read has
 * (GALLERY_MAX_IMAGE_BYTES): over it, nothing is read and the page is told so.
 */
import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImageJobSources } from '../../../electron/core/images/image-job-sources';
import { GALLERY_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let root: string;
let sources: ImageJobSources;

beforeEach(async () => {
  root = await tempFolder('job-file-cap');
  sources = new ImageJobSources({ pageOrigin: 'pictor-app://images' });
});

afterEach(async () => {
  await removeFolder(root);
});

/** A file that passed the header check, then grown (sparse) to `bytes` before the job's open. */
async function swapped(name: string, bytes: number): Promise<string> {
  const file = join(root, name);
  await writeFile(file, Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'));
  await truncate(file, bytes);
  return file;
}

const serve = (token: string) => sources.serve(new Request(`http://job/${token}`));

describe('an image job file swapped for a larger one after its header check', () => {
  it('is refused, nothing of it read, when it is one byte over the gallery cap, in the gallery or named alone', async () => {
    const file = await swapped('huge.png', GALLERY_MAX_IMAGE_BYTES + 1);
    for (const source of [{ root }, {}]) {
      const response = await serve(sources.register({ kind: 'file', file, ...source }).token);
      expect(response.status).toBe(413);
      expect(await response.text()).toMatch(/larger than/);
    }
    expect(sources.readBufferCounters.made).toBe(0);
  });

  it('is refused at several GB as at one byte over', async () => {
    const file = await swapped('several-gb.png', 8 * 1024 ** 3);
    const response = await serve(sources.register({ kind: 'file', file, root }).token);
    expect(response.status).toBe(413);
    expect(sources.readBufferCounters.made).toBe(0);
  });

  it('is served when it is exactly the cap', async () => {
    const file = await swapped('at-cap.png', GALLERY_MAX_IMAGE_BYTES);
    const response = await serve(sources.register({ kind: 'file', file, root }).token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(GALLERY_MAX_IMAGE_BYTES));
    await response.body?.cancel();
  });
});
