/**
 * A real gallery folder for the protocol tests: real PNG and WebP files made with sharp, files
 * that must not be served, and real symlinks that stay inside the folder or lead out of it.
 *
 *   <tmp>/gallery/                      the root
 *     2024/05/task/image-0.png          served
 *     2024/05/task/.thumbs/image-0.webp served
 *     2024/05/task/pictor.json          not an image
 *     2024/05/task/IMAGE-1.PNG          upper-case extension, served
 *     a b/ünïcode.png                   served through galleryUrl()
 *     notes.txt                         not an image
 *     .pictor-tmp/half.png              the gallery's temp folder
 *     folder.png/                       a directory with an image name
 *     link-inside.png  -> 2024/05/task/image-0.png   stays inside: served
 *     link-outside.png -> ../outside/secret.png      leaves: refused
 *     link-to-text.png -> notes.txt                  inside, but not an image
 *     linkdir          -> ../outside                 a folder link that leaves
 *     loop.png         -> loop.png                   a loop
 *     dangling.png     -> ../outside/missing.png     points nowhere
 *   <tmp>/outside/secret.png            must never be served
 *   <tmp>/gallery-link -> gallery       the root itself behind a symlink
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

export interface ProtocolFixture {
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  readonly png: Buffer;
  readonly webp: Buffer;
  remove(): Promise<void>;
}

async function image(format: 'png' | 'webp', colour: string): Promise<Buffer> {
  const pipeline = sharp({ create: { width: 8, height: 6, channels: 3, background: colour } });
  return format === 'png' ? pipeline.png().toBuffer() : pipeline.webp().toBuffer();
}

export async function makeProtocolFixture(): Promise<ProtocolFixture> {
  const base = await tempFolder('protocol');
  const root = join(base, 'gallery');
  const outside = join(base, 'outside');
  const task = join(root, '2024', '05', 'task');
  const png = await image('png', '#ff0000');
  const webp = await image('webp', '#00ff00');
  for (const dir of [
    join(task, '.thumbs'),
    join(root, 'a b'),
    join(root, '.pictor-tmp'),
    outside,
  ]) {
    await mkdir(dir, { recursive: true });
  }
  await mkdir(join(root, 'folder.png'));
  await writeFile(join(task, 'image-0.png'), png);
  await writeFile(join(task, 'IMAGE-1.PNG'), png);
  await writeFile(join(task, '.thumbs', 'image-0.webp'), webp);
  await writeFile(join(task, 'pictor.json'), '{"prompt":"x"}');
  await writeFile(join(root, 'a b', 'ünïcode.png'), png);
  await writeFile(join(root, 'notes.txt'), 'not an image');
  await writeFile(join(root, '.pictor-tmp', 'half.png'), png.subarray(0, 10));
  await writeFile(join(outside, 'secret.png'), await image('png', '#0000ff'));
  await symlink(join('2024', '05', 'task', 'image-0.png'), join(root, 'link-inside.png'));
  await symlink(join('..', 'outside', 'secret.png'), join(root, 'link-outside.png'));
  await symlink('notes.txt', join(root, 'link-to-text.png'));
  await symlink(join('..', 'outside'), join(root, 'linkdir'), 'dir');
  await symlink('loop.png', join(root, 'loop.png'));
  await symlink(join('..', 'outside', 'missing.png'), join(root, 'dangling.png'));
  await symlink('gallery', join(base, 'gallery-link'), 'dir');
  return {
    base,
    root,
    outside,
    png,
    webp,
    remove: () => removeFolder(base),
  };
}
