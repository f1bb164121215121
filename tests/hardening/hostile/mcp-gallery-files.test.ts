/**
 * `pictor mcp`'s get_image reads an image file of the gallery for an agent. The gallery is a
 * folder other local processes can write to, and one a crafted folder was rebuilt from: its image
 * and thumbnail files may have become links to files outside the library, or FIFOs. The tool must
 * read them as every other reader of the gallery does (core/fs/regular-file.ts): only a regular
 * file, opened inside the gallery, never through a link, never waiting on a pipe. The real CLI
 * over stdio, real files.
 */
import { readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fifoMaker, makeFifo, needing } from '../../support/tools';
import {
  answerOf,
  mcpLibrary,
  refusalOf,
  type McpSession,
} from '../../integration/mcp/mcp-harness';

/** Far more than reading one small image takes; far less than the client's own 60 s. */
const ANSWERS_WITHIN_MS = 15_000;
const fifo = fifoMaker();
const lib = mcpLibrary('sk-unused-mcp-files-Hq7Rw2', 'mcp-files');

/** Every image file under `folder` (the gallery's images and thumbnails). */
async function imageFiles(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(png|jpe?g|webp)$/.test(entry.name)) {
      found.push(join(entry.parentPath, entry.name));
    }
  }
  return found;
}

/** A served library with one generated image, and that image's reference and files. */
async function oneImage(): Promise<{ mcp: McpSession; ref: string; files: string[] }> {
  const mcp = await lib.serve(['--provider', 'demo', '--poll-interval', '0.1'], {
    key: null,
    env: { PICTOR_DEMO_DURATION_MS: '100' },
  });
  const { tasks } = answerOf<{ tasks: { images: { ref: string }[] }[] }>(
    await mcp.call('generate', { prompt: 'a quiet harbour', wait: true }),
  );
  const ref = tasks[0]?.images[0]?.ref ?? '';
  expect(ref).toMatch(/#1$/);
  // What the tool reads before anything is swapped: both files are there and served.
  for (const as of ['file', 'thumbnail']) {
    const served = await mcp.call('get_image', { ref, as });
    expect(served instanceof Error || served.isError === true, `get_image as ${as}`).toBe(false);
  }
  const files = await imageFiles(lib.dataDir);
  expect(files.length, 'the image and its thumbnail on disk').toBeGreaterThanOrEqual(2);
  return { mcp, ref, files };
}

/** get_image, as file and as thumbnail, each answered within the bound. */
async function bothWays(mcp: McpSession, ref: string) {
  const answers = [];
  for (const as of ['file', 'thumbnail']) {
    const started = Date.now();
    const answered = await mcp.client
      .callTool({ name: 'get_image', arguments: { ref, as } }, undefined, {
        timeout: ANSWERS_WITHIN_MS,
      })
      .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    expect(Date.now() - started, `get_image as ${as} answered`).toBeLessThan(ANSWERS_WITHIN_MS);
    answers.push(answered as Parameters<typeof refusalOf>[0]);
  }
  return answers;
}

describe('get_image reads only the regular files inside the gallery', () => {
  it('refuses image and thumbnail files that became links to images outside the library', async () => {
    const { mcp, ref, files } = await oneImage();
    // An image of someone else's, outside the library, that the agent must never see.
    const secret = await sharp({
      create: { width: 9, height: 7, channels: 3, background: '#c0ffee' },
    })
      .png()
      .toBuffer();
    const outside = join(lib.home, 'private.png');
    await writeFile(outside, secret);
    for (const file of files) {
      await rm(file);
      await symlink(outside, file);
    }
    const secretBase64 = secret.toString('base64');
    for (const answered of await bothWays(mcp, ref)) {
      expect(refusalOf(answered)).not.toBe('');
      expect(JSON.stringify(answered)).not.toContain(secretBase64);
    }
    expect(mcp.said()).not.toContain(secretBase64);
  }, 120_000);

  it('refuses files whose folder became a link to a folder outside the library', async () => {
    const { mcp, ref, files } = await oneImage();
    // The image's own folder (the thumbnail's is inside it) moved out, a link left in its place:
    // the files are regular, and their names are the ones the record gives.
    const folder = dirname(files.find((file) => !file.includes('.thumbs')) ?? '');
    const outside = join(lib.home, 'moved-out');
    await rename(folder, outside);
    await symlink(outside, folder);
    const moved = await imageFiles(outside);
    expect(moved.length).toBeGreaterThanOrEqual(2);
    const movedBase64 = await Promise.all(
      moved.map(async (file) => (await readFile(file)).toString('base64')),
    );
    for (const answered of await bothWays(mcp, ref)) {
      expect(refusalOf(answered)).not.toBe('');
      for (const bytes of movedBase64) expect(JSON.stringify(answered)).not.toContain(bytes);
    }
  }, 120_000);

  it.skipIf(!fifo.path)(
    needing(fifo, 'refuses FIFOs where the files were, at once, and still answers after'),
    async () => {
      const { mcp, ref, files } = await oneImage();
      for (const file of files) {
        await rm(file);
        makeFifo(fifo, file);
      }
      for (const answered of await bothWays(mcp, ref)) expect(refusalOf(answered)).not.toBe('');
      // The server is not stuck on a pipe: the next call is answered.
      expect(
        answerOf<{ images: unknown[] }>(await mcp.call('list_images', {})).images,
      ).toHaveLength(1);
    },
    120_000,
  );
});
