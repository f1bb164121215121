/**
 * The gallery scheme's two folders with rules of their own, reached by another way than their
 * name: the temp folder (`.pictor-tmp`, half-written downloads, never served) and the input
 * store (`inputs/`, only `<sha256>.<ext>` one level deep). A crafted gallery folder holds links
 * into them (a file link, a folder link, from a subfolder), and a hostile page asks for them in
 * another case, which a case-insensitive disk (macOS, Windows) opens as the same folder; Windows
 * also opens a folder by its 8.3 short name (`PICTOR~1`), which no rule on the request's
 * spelling can know. Every one is refused: the rules are judged on the real file's path inside
 * the real root too, not only on what the request spells.
 *
 * Real files, real symlinks, the real protocol code (a request answered: as asked, then as opened),
 * on this machine's disk.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveGalleryRequest } from '../../../electron/app/protocol/gallery-request';
import { RealRoots } from '../../../electron/app/protocol/real-roots';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const G = 'pictor-gallery://gallery';
const DIGEST = 'c'.repeat(64);

let base: string;
let root: string;

beforeAll(async () => {
  base = await tempFolder('hidden-folders');
  root = join(base, 'gallery');
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#0f0' } })
    .png()
    .toBuffer();
  for (const dir of ['.pictor-tmp', '2024/05/.pictor-tmp', 'inputs/sub', '2024/05/task']) {
    await mkdir(join(root, dir), { recursive: true });
  }
  await writeFile(join(root, '.pictor-tmp', 'half.png'), png.subarray(0, 20));
  await writeFile(join(root, '2024/05/.pictor-tmp', 'half.png'), png.subarray(0, 20));
  await writeFile(join(root, 'inputs', `${DIGEST}.png`), png);
  await writeFile(join(root, 'inputs', 'notes.png'), png);
  await writeFile(join(root, 'inputs/sub', `${DIGEST}.png`), png);
  await writeFile(join(root, '2024/05/task', 'image-0.png'), png);
  // A crafted gallery: links that stay inside the folder but lead into the two.
  await symlink('.pictor-tmp/half.png', join(root, 'peek.png'));
  await symlink('../.pictor-tmp/half.png', join(root, '2024', 'peek.png'));
  await symlink('.pictor-tmp', join(root, 'tmpdir'));
  await symlink('inputs/notes.png', join(root, 'note-link.png'));
  await symlink('inputs', join(root, 'inputdir'));
  await symlink(`../../inputs/sub/${DIGEST}.png`, join(root, '2024/05', 'deep.png'));
  // And the links the rules allow: an image of the gallery, a stored input.
  await symlink('2024/05/task/image-0.png', join(root, 'fine.png'));
  await symlink(`inputs/${DIGEST}.png`, join(root, 'input-link.png'));
});

afterAll(async () => {
  await removeFolder(base);
});

describe('the temp folder and the input store, reached another way', () => {
  it.each([
    ['a link to a half-written file', 'peek.png'],
    ['a link from a subfolder', '2024/peek.png'],
    ['a folder link to the temp folder', 'tmpdir/half.png'],
    ['the temp folder in another case', '.PICTOR-TMP/half.png'],
    ['a nested temp folder in another case', '2024/05/.Pictor-Tmp/half.png'],
    ['a link to an input that is not a stored one', 'note-link.png'],
    ['a folder link to the input store', 'inputdir/notes.png'],
    ['a link into a subfolder of the input store', '2024/05/deep.png'],
  ])('refuses %s (%s), and serves none of its bytes', async (_what, path) => {
    const roots = new RealRoots();
    const response = await serveGalleryRequest(new Request(`${G}/${path}`), root, { roots });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it.each([
    ['an image of the gallery through a link', 'fine.png'],
    ['a stored input through a link', 'input-link.png'],
    ['a stored input by its name', `inputs/${DIGEST}.png`],
    ['a stored input through a folder link', `inputdir/${DIGEST}.png`],
  ])('still serves %s (%s)', async (_what, path) => {
    const response = await serveGalleryRequest(new Request(`${G}/${path}`), root, {
      roots: new RealRoots(),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
  });
});
