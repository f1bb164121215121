/**
 * The gallery folder's real path, asked once for a burst of requests (real-roots.ts): a screen of
 * thumbnails asked for at once looks the root up once, not twice a thumbnail; the answer is held
 * for ROOT_HELD_MS on a manual clock, then asked again, so a root the user re-points is followed;
 * a root that does not exist is asked for again on the next request. Real files, real PNGs, the
 * real protocol handler; `realpath` is only counted (it runs as it would).
 */
import { promises as fsPromises } from 'node:fs';
import { mkdir, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveGalleryRequest } from '../../../../electron/app/protocol/gallery-request';
import { ROOT_HELD_MS, RealRoots } from '../../../../electron/app/protocol/real-roots';
import { ManualClock } from '../../../fakes/manual-clock';
import { makeImage } from '../../../support/gallery-helpers';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const SCREEN = 25;
const url = (i: number) => `pictor-gallery://gallery/task/image-${i}.png`;

let base: string;
/** `<base>/gallery-link`: the root as the user chose it, a link to one of two folders. */
let root: string;
const first: Buffer[] = [];
let second: Buffer;

beforeEach(async () => {
  base = await tempFolder('real-roots');
  await mkdir(join(base, 'first', 'task'), { recursive: true });
  await mkdir(join(base, 'second', 'task'), { recursive: true });
  first.length = 0;
  for (let i = 0; i < SCREEN; i += 1) {
    first.push(await makeImage('png', 8, 8));
    await writeFile(join(base, 'first', 'task', `image-${i}.png`), first[i]!);
  }
  second = await makeImage('png', 9, 9);
  await writeFile(join(base, 'second', 'task', 'image-0.png'), second);
  root = join(base, 'gallery-link');
  await symlink(join(base, 'first'), root);
});

afterEach(async () => {
  vi.restoreAllMocks();
  await removeFolder(base);
});

async function body(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

/** Counts `realpath` calls on the root (they still run). */
function rootLookups(): () => number {
  const realpath = fsPromises.realpath.bind(fsPromises);
  let count = 0;
  vi.spyOn(fsPromises, 'realpath').mockImplementation(((path: string, options?: never) => {
    if (String(path) === root) count += 1;
    return realpath(path, options);
  }) as typeof fsPromises.realpath);
  return () => count;
}

describe("the gallery root's real path, once for a burst of requests", () => {
  it('looks the root up once for a screen of thumbnails asked for at once', async () => {
    const lookups = rootLookups();
    const roots = new RealRoots(new ManualClock());
    const answers = await Promise.all(
      first.map((_, i) => serveGalleryRequest(new Request(url(i)), root, { roots })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(first.map(() => 200));
    const bodies = await Promise.all(answers.map(body));
    expect(bodies.every((bytes, i) => bytes.equals(first[i]!))).toBe(true);
    expect(lookups()).toBe(1);
  });

  it('follows a root re-pointed elsewhere once the held answer is ROOT_HELD_MS old', async () => {
    const clock = new ManualClock();
    const roots = new RealRoots(clock);
    expect(await body(await serveGalleryRequest(new Request(url(0)), root, { roots }))).toEqual(
      first[0],
    );
    await unlink(root);
    await symlink(join(base, 'second'), root);
    await clock.advance(ROOT_HELD_MS);
    const answer = await serveGalleryRequest(new Request(url(0)), root, { roots });
    expect(answer.status).toBe(200);
    expect((await body(answer)).equals(second)).toBe(true);
  });

  it('asks again for a root that did not exist, without waiting for the hold', async () => {
    const roots = new RealRoots(new ManualClock());
    await unlink(root);
    expect((await serveGalleryRequest(new Request(url(0)), root, { roots })).status).toBe(404);
    await symlink(join(base, 'first'), root);
    const answer = await serveGalleryRequest(new Request(url(0)), root, { roots });
    expect(answer.status).toBe(200);
    expect((await body(answer)).equals(first[0]!)).toBe(true);
  });

  it('still refuses, within the hold, a file swapped for a link that leaves the root', async () => {
    const roots = new RealRoots(new ManualClock());
    await mkdir(join(base, 'outside'));
    await writeFile(join(base, 'outside', 'secret.png'), second);
    expect((await serveGalleryRequest(new Request(url(1)), root, { roots })).status).toBe(200);
    await unlink(join(base, 'first', 'task', 'image-1.png'));
    await symlink(join(base, 'outside', 'secret.png'), join(base, 'first', 'task', 'image-1.png'));
    const answer = await serveGalleryRequest(new Request(url(1)), root, { roots });
    expect(answer.status).toBe(403);
    expect((await body(answer)).includes(second.subarray(0, 32))).toBe(false);
  });
});
