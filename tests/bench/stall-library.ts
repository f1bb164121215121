/**
 * The library the "Main stall" row (suites/main-stall.ts) works on: the real core opened over a
 * copy of the bench's history (history-fixture.ts), with the folders of the images it rates (so
 * their XMP sidecars are written as in the app) and the files of the images it deletes (so the
 * trash moves real files), and a second connection on main for the controls.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { systemClock } from '../../electron/adapters/system-clock';
import { createHeaderOnlyEngine } from '../../electron/adapters/image-engines/header-only-engine';
import type { ImageRef } from '../../electron/core/gallery/gallery-images';
import { HistoryStore } from '../../electron/core/history/history-store';
import { HISTORY_FILE, openPictorCore, type PictorCore } from '../../electron/core/pictor-core';
import { StaticCredentials } from '../fakes/static-credentials';
import { bigHistory } from './history-fixture';
import { collectGarbage, type Stalled, stalled } from './main-stall';

export interface StallLibrary {
  readonly core: PictorCore;
  /** Main's own second connection, for the operations run synchronously (the controls). */
  readonly control: HistoryStore;
  readonly file: string;
  readonly source: string;
  close(): Promise<void>;
}

/** The core over a `tasks`-task history in `dir`; the history copied (or built) first. */
export async function stallLibrary(dir: string, tasks: number): Promise<StallLibrary> {
  const data = join(dir, 'data');
  mkdirSync(data, { recursive: true });
  const file = join(data, HISTORY_FILE);
  // Its source alone: the records it returns are let go, and collected, before anything is timed.
  const { source: from } = bigHistory(file, tasks);
  collectGarbage();
  // The copy is on disk before anything is timed (the kernel writing it back would hold fsyncs).
  const copy = openSync(file, 'r+');
  fsyncSync(copy);
  closeSync(copy);
  const core = await openPictorCore({
    imageEngine: createHeaderOnlyEngine(),
    dataDir: data,
    galleryDir: join(dir, 'gallery'),
    fetch,
    credentials: new StaticCredentials('http://127.0.0.1:9', null),
    clock: systemClock,
  });
  const control = HistoryStore.open(file);
  const source = from === 'cache' ? 'a cached copy' : 'built for the run';
  return {
    core,
    control,
    file,
    source,
    async close() {
      control.close();
      await core.close();
    },
  };
}

/** The folders of the images' tasks, made in the gallery (their XMP sidecars go there). */
export function makeFolders(core: PictorCore, refs: readonly ImageRef[]): void {
  for (const localId of new Set(refs.map((ref) => ref.localId))) {
    const folder = core.history.get(localId)?.folder;
    if (folder !== undefined && folder !== null)
      mkdirSync(core.gallery.resolve(folder), { recursive: true });
  }
}

/** Each image's file and thumbnail written (a few bytes each), for the trash to move. */
export function makeImageFiles(core: PictorCore, refs: readonly ImageRef[]): void {
  for (const { localId, index } of refs) {
    const image = core.history.get(localId)?.images[index];
    for (const relative of [image?.file, image?.thumbnail]) {
      if (relative === undefined) continue;
      const path = core.gallery.resolve(relative);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, 'bench');
    }
  }
}

/**
 * `work` with main's stalls measured until the XMP sidecars it asked for are written (the engine
 * paused and resumed: its pause waits for the sidecar writes under way); `ms` of the result is the
 * time to `work`'s answer alone.
 */
export async function untilWritten<T>(core: PictorCore, work: () => Promise<T>) {
  let answerMs = 0;
  const measured: Stalled<T> = await stalled(async () => {
    const start = performance.now();
    const value = await work();
    answerMs = performance.now() - start;
    // A triage write answers at its commit: its tasks are announced (sidecars asked for) after.
    await core.triage.settled();
    await core.engine.pause();
    core.engine.resume();
    return value;
  });
  return { ...measured, answerMs };
}
