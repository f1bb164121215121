/**
 * The copy a drag out hands the OS of a task kept under a key-carrying id (core/gallery/
 * outgoing-file.ts): the user's image, readable by any local user as it was made (0644 in the
 * gallery's temp folder under a random name) and kept until the app's next start. Now it is
 * owner-only (0600) in an owner-only folder (0700) of its own, under the image's name; removed
 * when the next drag begins, at once when the drag could not begin, at the core's close (a quit),
 * and, left by a crash, by the next start's sweep of the temp folder. Two drags asked at once (a page may send them) leave one
 * copy, the last handed; an image removed before its drag hands nothing and leaves nothing. Real
 * files in a real library; the shell records what it was handed (Electron's drag is the adapter's).
 */
import { readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { TEMP_DIR } from '../../../electron/core/fs';
import { Gallery } from '../../../electron/core/gallery';
import { embedProvenanceInFile } from '../../../electron/core/gallery/metadata/embed';
import { provenanceOf } from '../../../electron/core/gallery/metadata/provenance';
import { galleryOutgoingHandlers } from '../../../electron/ipc/gallery-outgoing-handlers';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import type { ShellActions } from '../../../electron/ports/shell-actions';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { coreAgainstDemo, DONE_AT_FIRST_POLL } from '../../integration/core/core-harness';
import { ipcCaller } from '../../support/ipc';
import { keyScanner } from './key-encodings';

const KEY = QUIRKY_KEYS.carol;
const posix = process.platform !== 'win32';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A library with two tasks kept under ids that carry the key, and a drag that may fail. */
async function library(dragWorks: () => boolean) {
  const h = await coreAgainstDemo(DONE_AT_FIRST_POLL);
  let closing: Promise<void> | null = null;
  /** The core's close (a quit's), once: the test's own, or the cleanup's. */
  const close = () => (closing ??= h.core.close());
  cleanups.push(async () => {
    await close();
    await h.service.close();
    await rm(h.dir, { recursive: true, force: true });
  });
  h.core.engine.start();
  const made = await h.core.engine.submit({ prompt: 'kept', size: '64x48' }, h.target, 2);
  const records = await h.core.engine.whenSettled(made.map((one) => one.localId));
  h.credentials.setKey(KEY);
  const root = h.core.gallery.root;
  for (const [n, record] of records.entries()) {
    const kept: TaskRecord = { ...record, taskId: `task-${KEY}-${n}` };
    h.core.history.put(kept);
    const image = kept.images[0]!;
    const provenance = provenanceOf(kept, image.index, 'old');
    const options = { root, maxBytes: MAX_IMAGE_BYTES };
    expect((await embedProvenanceInFile(join(root, image.file!), 'png', provenance, options)).ok);
  }
  const dragged: string[] = [];
  const shell: Pick<ShellActions, 'copyImage' | 'chooseSaveAsFile' | 'startDrag'> = {
    copyImage: () => Promise.resolve({ ok: true, value: undefined }),
    chooseSaveAsFile: () => Promise.resolve({ ok: true, value: null }),
    startDrag: async (_sender, file) => {
      dragged.push(file);
      return dragWorks()
        ? { ok: true, value: undefined }
        : { ok: false, error: { code: 'failed', message: 'The drag could not start.' } };
    },
  };
  const handlers = galleryOutgoingHandlers({ core: h.core, shell }) as unknown as IpcHandlers;
  const drag = (record: TaskRecord) =>
    ipcCaller(handlers)('gallery:startDrag', { localId: record.localId, index: 0 });
  return { root, records, dragged, drag, close };
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe("a drag's copy of a key-carrying task's image", () => {
  it('is owner-only, in an owner-only folder of its own, under the image name, without the key', async () => {
    const { root, records, dragged, drag } = await library(() => true);
    expect(await drag(records[0]!)).toMatchObject({ ok: true });
    const [copy] = dragged;
    expect(dirname(dirname(copy!))).toBe(join(root, TEMP_DIR));
    expect(basename(copy!)).toBe(basename(records[0]!.images[0]!.file!));
    expect(keyScanner(KEY).leaks((await readFile(copy!)).toString('latin1'))).toEqual([]);
    if (posix) {
      expect((await stat(copy!)).mode & 0o777).toBe(0o600);
      expect((await stat(dirname(copy!))).mode & 0o777).toBe(0o700);
    }
  });

  it('goes when the next drag begins; the next one stays until its own next', async () => {
    const { records, dragged, drag } = await library(() => true);
    await drag(records[0]!);
    await drag(records[1]!);
    expect(await exists(dirname(dragged[0]!))).toBe(false);
    expect(await exists(dragged[1]!)).toBe(true);
    await drag(records[0]!);
    expect(await exists(dirname(dragged[1]!))).toBe(false);
    expect(await exists(dragged[2]!)).toBe(true);
  });

  it('goes at once when the drag could not begin', async () => {
    const { root, records, dragged, drag } = await library(() => false);
    expect(await drag(records[0]!)).toMatchObject({ ok: false });
    expect(await exists(dirname(dragged[0]!))).toBe(false);
    expect(await readdir(join(root, TEMP_DIR))).toEqual([]);
  });

  it("goes at the core's close (a quit), the folder it was made in with it", async () => {
    const { root, records, dragged, drag, close } = await library(() => true);
    await drag(records[0]!);
    expect(await exists(dragged[0]!)).toBe(true);
    await close();
    expect(await exists(dirname(dragged[0]!))).toBe(false);
    expect(await readdir(join(root, TEMP_DIR))).toEqual([]);
  });

  it("left by a crash (its process gone), goes at the next start's sweep", async () => {
    const { root, records, dragged, drag } = await library(() => true);
    await drag(records[0]!);
    // As a process that crashed named it: this machine's tag, a pid no process has.
    const folder = dirname(dragged[0]!);
    const crashed = join(
      dirname(folder),
      basename(folder).replace(`-${process.pid}-`, '-999999999-'),
    );
    await rename(folder, crashed);
    await new Gallery({ root }).init();
    expect(await exists(crashed)).toBe(false);
  });

  it('asked twice at once, leaves one copy, the last handed; the next drag removes it', async () => {
    const { root, records, dragged, drag } = await library(() => true);
    const both = await Promise.all([drag(records[0]!), drag(records[1]!)]);
    expect(both).toMatchObject([{ ok: true }, { ok: true }]);
    expect(dragged).toHaveLength(2);
    const left = await readdir(join(root, TEMP_DIR));
    expect(left).toHaveLength(1);
    expect(dragged.map((copy) => basename(dirname(copy)))).toContain(left[0]);
    await drag(records[0]!);
    expect(await readdir(join(root, TEMP_DIR))).toEqual([basename(dirname(dragged[2]!))]);
  });

  it('of an image removed before the drag, hands nothing and leaves nothing', async () => {
    const { root, records, dragged, drag } = await library(() => true);
    await unlink(join(root, records[0]!.images[0]!.file!));
    expect(await drag(records[0]!)).toMatchObject({ ok: false });
    expect(dragged).toEqual([]);
    expect(await readdir(join(root, TEMP_DIR)).catch(() => [])).toEqual([]);
  });
});
