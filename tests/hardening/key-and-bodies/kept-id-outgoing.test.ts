/**
 * A task kept under an id that carries a key the app holds, before the sweep rewrote its images:
 * Pictor's packet in each image names that id. Save as, Copy image and a drag out used to hand the
 * gallery's file as it is to the OS; now they hand a copy without the metadata that carries the
 * key (core/gallery/outgoing-file.ts), the pixels the same, and Save as's suggested name is made
 * from the prompt scrubbed (a tracked task's prompt holds its id). The shell here records what it
 * was handed and reads the file then (the app's shell adapter is Electron's); Save as's dialog
 * answers a file in the test's folder, and what it hands out is the copy the core writes there.
 * Controls: the gallery's file carries the key; a task whose id carries none is handed its own
 * file, unread.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { embedProvenanceInFile } from '../../../electron/core/gallery/metadata/embed';
import { provenanceOf } from '../../../electron/core/gallery/metadata/provenance';
import { galleryHandlers } from '../../../electron/ipc/gallery-handlers';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import type { ShellActions } from '../../../electron/ports/shell-actions';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { coreAgainstDemo, DONE_AT_FIRST_POLL } from '../../integration/core/core-harness';
import { ipcCaller } from '../../support/ipc';
import { trashFixture } from '../../support/trash-fixture';
import { ENCODINGS, keyScanner } from './key-encodings';
import { keyedImages, plainImages } from './download-metadata-keys';
import { sniffImage, withoutKeyMetadata } from '../../../electron/core/images';
import { scrubKey } from '../../../electron/core/secrets/key-echo';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = QUIRKY_KEYS.alice;
const leaks = (bytes: Buffer | string) => {
  const text = typeof bytes === 'string' ? bytes : bytes.toString('latin1');
  return keyScanner(KEY).leaks(`${text}\n${Buffer.from(text, 'latin1').toString('utf8')}`);
};

interface Handed {
  readonly action: string;
  readonly file: string;
  /** Read as it was handed; Save as's once the copy is written (by the call's end). */
  bytes: Buffer | null;
  readonly prompt?: string;
}

/**
 * A shell that records what it was handed, the file's bytes read as it was handed; Save as's
 * dialog answers a new file in `folder`, whose bytes are read once the call has answered.
 */
function recordingShell(handed: Handed[], folder: string): ShellActions {
  const take = async (action: string, file: string) => {
    handed.push({ action, file, bytes: await readFile(file) });
  };
  const done = { ok: true as const, value: undefined };
  return {
    reveal: () => Promise.resolve(done),
    copyImage: async (file) => (await take('copy', file), done),
    chooseSaveAsFile: async (_file, request) => {
      const target = join(folder, `saved-${handed.length}.png`);
      handed.push({ action: 'saveAs', file: target, bytes: null, prompt: request.prompt });
      return { ok: true, value: target };
    },
    startDrag: async (_sender, file) => (await take('drag', file), done),
    openExternal: () => Promise.resolve(done),
    openGalleryFolder: () => Promise.resolve(done),
    openLogsFolder: () => Promise.resolve(done),
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A core with one task saved, the key held, and the handlers over a recording shell. */
async function keptLibrary() {
  const h = await coreAgainstDemo(DONE_AT_FIRST_POLL);
  cleanups.push(async () => {
    await h.core.close();
    await h.service.close();
    await removeFolder(h.dir);
  });
  h.core.engine.start();
  const [made] = await h.core.engine.submit({ prompt: 'kept', size: '64x48' }, h.target, 1);
  const [settled] = await h.core.engine.whenSettled([made!.localId]);
  h.credentials.setKey(KEY);
  const handed: Handed[] = [];
  const handlers = galleryHandlers({
    core: h.core,
    shell: recordingShell(handed, h.dir),
    chooseExportFolder: async () => null,
    emit: () => undefined,
    trash: trashFixture(h.core, h.dir).trash,
  }) as IpcHandlers;
  const ipcCall = ipcCaller(handlers);
  const call: typeof ipcCall = async (channel, raw) => {
    const answer = await ipcCall(channel, raw);
    for (const one of handed) one.bytes ??= await readFile(one.file);
    return answer;
  };
  return { h, settled: settled!, handed, call };
}

/** The task as an app from before ids were checked kept it: its record and its image's packet. */
async function keepUnder(
  h: Awaited<ReturnType<typeof keptLibrary>>['h'],
  record: TaskRecord,
  taskId: string,
) {
  const kept = { ...record, taskId, request: { ...record.request, prompt: `Tracked ${taskId}` } };
  h.core.history.put(kept);
  const image = kept.images[0]!;
  const root = h.core.gallery.root;
  const written = await embedProvenanceInFile(
    join(root, image.file!),
    'png',
    provenanceOf(kept, image.index, 'old'),
    { root, maxBytes: MAX_IMAGE_BYTES },
  );
  expect(written.ok).toBe(true);
  return join(root, image.file!);
}

const ref = (record: TaskRecord) => ({ localId: record.localId, index: 0 });
const pixelsOf = (bytes: Buffer) => sharp(bytes).raw().toBuffer();

describe('an image of a task kept under a key-carrying id, as it leaves the app', () => {
  it.each(['raw', 'base64', 'hexUpper', 'percentEveryByte', 'htmlHex'])(
    'Save as, Copy image and a drag hand a copy without the key (%s)',
    async (encoding) => {
      const { h, settled, handed, call } = await keptLibrary();
      const taskId = `task-${ENCODINGS[encoding]!(KEY, 0)}`;
      const file = await keepUnder(h, settled, taskId);
      const original = await readFile(file);
      expect(leaks(original)).not.toEqual([]);
      for (const channel of ['gallery:saveAs', 'gallery:copyImage', 'gallery:startDrag'] as const) {
        const answer = await call(channel, ref(settled));
        expect(answer, channel).toMatchObject({ ok: true });
      }
      expect(handed.map((one) => one.action)).toEqual(['saveAs', 'copy', 'drag']);
      for (const one of handed) {
        expect(leaks(one.bytes!), one.action).toEqual([]);
        expect(one.file, one.action).not.toBe(file);
        expect((await pixelsOf(one.bytes!)).equals(await pixelsOf(original)), one.action).toBe(
          true,
        );
      }
      expect(handed[0]!.prompt).toBeDefined();
      expect(leaks(handed[0]!.prompt!)).toEqual([]);
      // The gallery's own file is the sweep's to rewrite; nothing here touched it.
      expect((await readFile(file)).equals(original)).toBe(true);
    },
  );

  it.each(['raw', 'base64url', 'hexUpper'])(
    'an export of chosen images into a folder writes no key (%s)',
    async (encoding) => {
      const { h, settled } = await keptLibrary();
      const file = await keepUnder(h, settled, `task-${ENCODINGS[encoding]!(KEY, 1)}`);
      expect(leaks(await readFile(file))).not.toEqual([]);
      const folder = await tempFolder('kept-export');
      cleanups.push(() => removeFolder(folder));
      const outcome = await h.core.operations.exportImages({ images: [ref(settled)] }, folder);
      expect(outcome).toMatchObject({ copied: 1 });
      const written = await readdir(folder);
      expect(written.length).toBeGreaterThan(0);
      for (const name of written) {
        const bytes = await readFile(join(folder, name));
        expect(leaks(name), name).toEqual([]);
        expect(leaks(bytes), name).toEqual([]);
        expect((await pixelsOf(bytes)).equals(await pixelsOf(await readFile(file)))).toBe(true);
      }
    },
  );

  it('Save as reads the keys held once: its suggested name and its copy are scrubbed by them', async () => {
    const { h, settled, handed, call } = await keptLibrary();
    await keepUnder(h, settled, `task-${KEY}`);
    const heldKeys = vi.spyOn(h.credentials, 'heldKeys');
    expect(await call('gallery:saveAs', ref(settled))).toMatchObject({ ok: true });
    expect(heldKeys).toHaveBeenCalledTimes(1);
    expect(handed.map((one) => [one.action, leaks(one.prompt!), leaks(one.bytes!)])).toEqual([
      ['saveAs', [], []],
    ]);
  });

  it('a task whose id carries no key is handed its own file', async () => {
    const { h, settled, handed, call } = await keptLibrary();
    const file = await keepUnder(h, settled, 'task-ordinary-id');
    await call('gallery:saveAs', ref(settled));
    await call('gallery:copyImage', ref(settled));
    expect(handed.map((one) => one.action)).toEqual(['saveAs', 'copy']);
    expect(handed[0]!.prompt).toBe('Tracked task-ordinary-id');
    expect(handed[0]!.bytes!.equals(await readFile(file))).toBe(true);
    expect(handed[1]!.file).toBe(file);
  });
});

/**
 * The same for an image whose task id carries no key while its own metadata does: a file saved
 * before downloads were searched for held keys, or before the key it echoes was entered. The
 * app's gallery protocol judged such a file by its bytes; Save as, Copy image and a drag judged
 * only the task's id and handed the file as it was (a key in a zTXt chunk, compressed, is beyond
 * any text scrub downstream).
 */
describe('an image whose own metadata carries a held key, its task id none', () => {
  it.each(['PNG tEXt', 'PNG zTXt', 'PNG iTXt (compressed)'])(
    'Save as, Copy image and a drag hand a copy without it (%s)',
    async (carrier) => {
      const { h, settled, handed, call } = await keptLibrary();
      const image = settled.images[0]!;
      const file = join(h.core.gallery.root, image.file!);
      const plain = await plainImages();
      const keyed = keyedImages(plain, `echo ${KEY} echo`)[carrier]!;
      await writeFile(file, keyed.bytes);
      const carries = (bytes: Buffer) =>
        withoutKeyMetadata(bytes, sniffImage(bytes)!, (text) => scrubKey(text, [KEY])).kind !==
        'clean';
      expect(carries(await readFile(file))).toBe(true);
      for (const channel of ['gallery:saveAs', 'gallery:copyImage', 'gallery:startDrag'] as const) {
        expect(await call(channel, ref(settled)), channel).toMatchObject({ ok: true });
      }
      expect(handed.map((one) => one.action)).toEqual(['saveAs', 'copy', 'drag']);
      for (const one of handed) {
        expect(carries(one.bytes!), one.action).toBe(false);
        expect(one.file, one.action).not.toBe(file);
        expect((await pixelsOf(one.bytes!)).equals(await pixelsOf(keyed.bytes)), one.action).toBe(
          true,
        );
      }
      // An export of the image into a folder: the copy without it, its triage beside it.
      const folder = await tempFolder('keyed-export');
      cleanups.push(() => removeFolder(folder));
      const outcome = await h.core.operations.exportImages({ images: [ref(settled)] }, folder);
      expect(outcome).toMatchObject({ copied: 1, failed: 0 });
      const written = await readdir(folder);
      const copied = written.filter((name) => name.endsWith('.png'));
      expect(copied).toHaveLength(1);
      for (const name of written) {
        const bytes = await readFile(join(folder, name));
        if (name.endsWith('.png')) {
          expect(carries(bytes), name).toBe(false);
          expect((await pixelsOf(bytes)).equals(await pixelsOf(keyed.bytes)), name).toBe(true);
        } else expect(leaks(bytes), name).toEqual([]);
      }
    },
  );
});
