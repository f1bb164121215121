/**
 * The gallery protocol's check-then-open race. Between the request's decision (which file, as
 * asked) and the open, a folder on the way, or the file itself, is swapped for a link to a folder
 * outside the gallery. No byte of the outside file may be served: what was opened is judged, and
 * it is outside (403, as any link that leads out).
 */
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveGalleryRequest } from '../../../../electron/app/protocol/gallery-request';
import { makeImage } from '../../../support/gallery-helpers';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

let base: string;
let root: string;
let inside: Buffer;
let secret: Buffer;
const URL_ = 'pictor-gallery://gallery/2024/05/task/image-1.png';

beforeEach(async () => {
  base = await tempFolder('swap');
  root = join(base, 'gallery');
  inside = await makeImage('png', 16, 16);
  secret = await makeImage('png', 20, 20);
  await mkdir(join(root, '2024', '05', 'task'), { recursive: true });
  await writeFile(join(root, '2024', '05', 'task', 'image-1.png'), inside);
  // The same layout outside the gallery, so a followed link finds a file of the right name.
  await mkdir(join(base, 'outside', '2024', '05', 'task'), { recursive: true });
  await writeFile(join(base, 'outside', '2024', '05', 'task', 'image-1.png'), secret);
});

afterEach(() => removeFolder(base));

/** Swaps `<root>/<relative>` for a link to the same place under `outside`. */
function swap(relative: string): () => Promise<void> {
  return async () => {
    const at = join(root, ...relative.split('/'));
    await rename(at, `${at}-moved-away`);
    await symlink(join(base, 'outside', ...relative.split('/')), at);
  };
}

async function get(beforeOpen?: () => Promise<void>): Promise<{ status: number; body: Buffer }> {
  const response = await serveGalleryRequest(
    new Request(URL_),
    root,
    beforeOpen ? { beforeOpen } : {},
  );
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

describe('a swap between the check and the open serves nothing from outside', () => {
  it('serves the gallery file when nothing is swapped', async () => {
    const answer = await get();
    expect(answer.status).toBe(200);
    expect(answer.body.equals(inside)).toBe(true);
  });

  it.each([
    ['the task folder', '2024/05/task'],
    ['the month folder', '2024/05'],
    ['the year folder', '2024'],
    ['the file itself', '2024/05/task/image-1.png'],
  ])('%s swapped for a link', async (_, relative) => {
    const answer = await get(swap(relative));
    expect(answer.status).toBe(403);
    expect(answer.body.includes(secret.subarray(0, 64))).toBe(false);
  });

  it('a HEAD after the swap is refused too (no size or date of the outside file)', async () => {
    const response = await serveGalleryRequest(new Request(URL_, { method: 'HEAD' }), root, {
      beforeOpen: swap('2024/05/task'),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-length')).not.toBe(String(secret.length));
  });
});
