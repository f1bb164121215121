/**
 * `pictor mcp` and a task the library kept under an id that carries the key the server holds
 * (stored before ids were checked; no app has swept it yet): Pictor's packet in the saved image
 * names that id. get_image sent the file's bytes as the image content, the transport's scrub of
 * every outgoing message found the key in their base64 and cut it out, and the agent's client
 * refused the whole answer (its base64 broken). Now the image leaves as Save as, Copy and a drag
 * hand it (core/gallery/outgoing-file.ts): without the metadata that carries the key, the pixels
 * the same, so the answer is whole and holds no key. And its image references name it by its
 * local id: the key-carrying id came out of every answer as `task-[redacted]#1`, a reference no
 * tool takes back. The control: the file on disk carries the key; an image of a task whose id
 * carries none is sent byte for byte as it is. The real CLI over stdio, a library made by the
 * demo service on loopback, real PNGs.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { Gallery } from '../../../electron/core/gallery/gallery';
import { embedProvenanceInFile } from '../../../electron/core/gallery/metadata/embed';
import { provenanceOf } from '../../../electron/core/gallery/metadata/provenance';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { keyScanner } from '../key-and-bodies/key-encodings';
import { keyedImages, plainImages } from '../key-and-bodies/download-metadata-keys';
import { sniffImage, withoutKeyMetadata } from '../../../electron/core/images';
import { scrubKey } from '../../../electron/core/secrets/key-echo';
import { answerOf, mcpLibrary, type McpSession } from '../../integration/mcp/mcp-harness';
import { QUICK_POLL } from '../../support/quick-demo';

const KEY = 'sk-mcp-kept-id-4f7c2a91d8e6b350';
const lib = mcpLibrary(KEY, 'mcp-kept-id');

interface ImageAnswer {
  content: { type: string; data?: string; text?: string }[];
}

/** The one image content of a get_image answer, as bytes. */
function imageOf(result: Awaited<ReturnType<McpSession['call']>>): Buffer {
  if (result instanceof Error) throw result;
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  const image = (result as ImageAnswer).content.find((part) => part.type === 'image');
  return Buffer.from(image?.data ?? '', 'base64');
}

/** The saved image files (not thumbnails) under the library. */
async function savedImages(): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(lib.dataDir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.png') && !entry.parentPath.includes('thumb'))
      found.push(join(entry.parentPath, entry.name));
  }
  return found;
}

/** Two tasks made by the demo, by their local ids. */
async function twoTasks(): Promise<[string, string]> {
  const demo = await lib.demo({ durationMs: 10 });
  // Its tasks (10 ms each) looked at every 0.1 s, not every 3 s (QUICK_POLL).
  const mcp = await lib.serve(['--provider', 'pictor', '--base-url', demo.url, ...QUICK_POLL]);
  const made = answerOf<{ tasks: { localId: string }[] }>(
    await mcp.call('generate', { prompt: 'a quiet harbour', count: 2, wait: true }),
  );
  await mcp.close();
  return made.tasks.map((task) => task.localId) as [string, string];
}

/** Two tasks made by the demo; the first then kept as an old app kept it, under `taskId`. */
async function keptLibrary(taskId: string): Promise<{ kept: string; plain: string }> {
  const [kept, plain] = await twoTasks();
  const history = HistoryStore.open(join(lib.dataDir, HISTORY_FILE));
  const record = { ...history.get(kept)!, taskId };
  history.put(record);
  history.close();
  const image = record.images[0]!;
  const file = (await savedImages()).find((path) => path.endsWith(image.file!))!;
  const root = file.slice(0, file.length - image.file!.length);
  await new Gallery({ root, appVersion: 'old' }).writeSidecar(record);
  const written = await embedProvenanceInFile(file, 'png', provenanceOf(record, 0, 'old'), {
    root,
    maxBytes: MAX_IMAGE_BYTES,
  });
  expect(written.ok).toBe(true);
  // The control: the file the gallery keeps says the key.
  expect(keyScanner(KEY).leaks((await readFile(file)).toString('latin1'))).not.toEqual([]);
  return { kept, plain };
}

describe('get_image of a task kept under an id that carries the key', () => {
  it('hands over the whole image without the key, the pixels the same', async () => {
    const { kept, plain } = await keptLibrary(`task-${KEY}`);
    const mcp = await lib.serve(['--provider', 'pictor', '--base-url', 'http://127.0.0.1:9']);
    const file = imageOf(await mcp.call('get_image', { ref: `${kept}#1`, as: 'file' }));
    expect(keyScanner(KEY).leaks(file.toString('latin1'))).toEqual([]);
    const onDisk = (await savedImages()).map((path) => readFile(path));
    const disk = await Promise.all(onDisk);
    const source = disk.find((bytes) => keyScanner(KEY).leaks(bytes.toString('latin1')).length)!;
    const [sent, saved] = await Promise.all(
      [file, source].map((bytes) => sharp(bytes).raw().toBuffer()),
    );
    expect(sent?.equals(saved!)).toBe(true);
    // The thumbnail is whole too.
    await sharp(imageOf(await mcp.call('get_image', { ref: `${kept}#1` }))).stats();
    // The reference list_images gives it names it by its local id, not by the key-carrying id the
    // answer's scrub would leave as "[redacted]", and is taken back.
    const listed = answerOf<{ images: { ref: string }[] }>(await mcp.call('list_images', {}));
    expect(listed.images.map((one) => one.ref)).toContain(`${kept}#1`);
    const status = answerOf<{ images: { ref: string }[] }>(
      await mcp.call('task_status', { task: kept }),
    );
    expect(status.images[0]?.ref).toBe(`${kept}#1`);
    // A task whose id carries no key: its file as it is.
    const other = imageOf(await mcp.call('get_image', { ref: `${plain}#1`, as: 'file' }));
    expect(disk.some((bytes) => bytes.equals(other))).toBe(true);
  });
});

describe('get_image of an image whose own metadata carries the key, its task id none', () => {
  it('hands it over without that metadata, a compressed chunk too (no text scrub reads it)', async () => {
    const [plain] = await twoTasks();
    const files = await savedImages();
    const keyed = keyedImages(await plainImages(), `echo ${KEY} echo`)['PNG zTXt']!.bytes;
    // Every saved file now carries the key compressed; the plain task's is among them.
    await Promise.all(files.map((path) => writeFile(path, keyed)));
    const carries = (bytes: Buffer) =>
      withoutKeyMetadata(bytes, sniffImage(bytes)!, (text) => scrubKey(text, [KEY])).kind !==
      'clean';
    expect(carries(keyed)).toBe(true);
    const mcp = await lib.serve(['--provider', 'pictor', '--base-url', 'http://127.0.0.1:9']);
    const file = imageOf(await mcp.call('get_image', { ref: `${plain}#1`, as: 'file' }));
    expect(carries(file)).toBe(false);
    const [sent, saved] = await Promise.all(
      [file, keyed].map((bytes) => sharp(bytes).raw().toBuffer()),
    );
    expect(sent?.equals(saved!)).toBe(true);
  });
});
