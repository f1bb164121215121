/** Real libraries in temporary folders: a history file, a gallery of real images with sidecars. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TaskRecord } from '../../../../../shared/domain/task-record';
import { HistoryStore } from '../../../../../electron/core/history/history-store';
import type { Gallery } from '../../../../../electron/core/gallery/gallery';
import type { ImageIntake } from '../../../../../electron/core/download/image-intake';
import { galleryOffline } from '../../../../support/gallery-with-intake';
import {
  importLibrary,
  type ImportOptions,
  type ImportSummary,
} from '../../../../../electron/core/library/archive/import-library';
import { imageNames, taskFolderName } from '../../../../../electron/core/gallery/gallery-layout';
import { TEMP_DIR } from '../../../../../electron/core/fs/temp-names';
import { sidecarText } from '../../../../../electron/core/gallery/sidecar';
import { CoreOperations } from '../../../../../electron/core/operations/core-operations';
import { ManualClock } from '../../../../fakes/manual-clock';
import { onTestFinished } from 'vitest';
import { makeImage } from '../../../../support/gallery-helpers';
import { makeTaskRecord } from '../../../../support/task-records';
import { copyMigratedHistory } from '../../../../support/migrated-history';
import { fieldsOf, perTest } from '../../../../support/per-test';
import { removeFolder, tempFolder } from '../../../../support/temp-folders';

export interface Library {
  readonly dir: string;
  readonly root: string;
  readonly history: HistoryStore;
  /** The library's gallery: an import checks its images with the gallery's download check. */
  readonly gallery: Gallery;
  /** How its images are checked (an import's copies pass the download's check). */
  readonly intake: ImageIntake;
}

/** The core's long operations over `library`, every progress report passed on. */
export function operationsOn(library: Library): CoreOperations {
  const { history, gallery, intake } = library;
  return new CoreOperations({
    history,
    gallery,
    intake,
    records: history,
    clock: new ManualClock(),
    progressEveryMs: 0,
  });
}

/** A gallery whose intake never downloads (an import needs its root and its image check only). */
export function offlineGallery(root: string): { gallery: Gallery; intake: ImageIntake } {
  return galleryOffline(root);
}

/** A new library's history: a migrated copy opened (tests/support/migrated-history.ts). */
function openCopiedHistory(file: string): HistoryStore {
  copyMigratedHistory(file);
  return HistoryStore.open(file);
}

export async function makeLibrary(): Promise<Library> {
  const dir = await tempFolder('gallery');
  const root = join(dir, 'gallery');
  await mkdir(join(root, TEMP_DIR), { recursive: true });
  return {
    dir,
    root,
    history: openCopiedHistory(join(dir, 'history.sqlite')),
    ...offlineGallery(root),
  };
}

/** Closes `library`'s history and removes its folder. */
async function endLibrary(library: Library): Promise<void> {
  library.history.close();
  await removeFolder(library.dir);
}

/**
 * A fresh library for each test of the file (or of the `describe` it is called in): made before
 * each test, closed and removed when it ends (tests/support/per-test.ts). Read its fields inside
 * a test.
 */
export function useLibrary(): Library {
  const made = perTest('useLibrary', makeLibrary, endLibrary);
  return fieldsOf(made, ['dir', 'root', 'history', 'gallery', 'intake']);
}

/** Imports `source` into `library` (its gallery and history), with any other options given. */
export function importInto(
  library: Library,
  source: string,
  extra: Partial<ImportOptions> = {},
): Promise<ImportSummary> {
  return importLibrary({ intake: library.intake, history: library.history, source, ...extra });
}

/**
 * A maker of libraries for a test that needs several, each closed and removed when the test that
 * made it ends (after the file's own afterEach hooks, as {@link useLibrary}'s).
 */
export function useLibraries(): () => Promise<Library> {
  return async () => {
    const made = await makeLibrary();
    onTestFinished(() => endLibrary(made));
    return made;
  };
}

let counter = 0;

/** A finished task with `formats.length` real images saved in the gallery, its sidecar beside them. */
export async function addTask(
  library: Library,
  formats: readonly ('png' | 'jpeg' | 'webp')[] = ['png'],
  overrides: Partial<TaskRecord> = {},
): Promise<TaskRecord> {
  counter += 1;
  const base = makeTaskRecord(
    {
      localId: `local-${String(counter).padStart(4, '0')}-${Math.random().toString(36).slice(2, 8)}`,
      request: { prompt: `A lighthouse number ${counter}` },
      ...overrides,
    },
    Date.UTC(2025, 0, 1, 9, 0, counter),
  );
  const folder = taskFolderName(base);
  await mkdir(join(library.root, folder), { recursive: true });
  const images = [];
  for (const [index, format] of formats.entries()) {
    const bytes = await makeImage(format, 16 + counter, 12);
    const name = imageNames(index, format).image;
    await writeFile(join(library.root, folder, name), bytes);
    images.push({
      index,
      url: `https://cdn.example.com/${counter}/${index}`,
      state: 'saved' as const,
      file: `${folder}/${name}`,
      mime: `image/${format}` as const,
      width: 16 + counter,
      height: 12,
      bytes: bytes.length,
      attempts: 1,
      favourite: false,
    });
  }
  const record: TaskRecord = { ...base, folder, images };
  await writeFile(join(library.root, folder, 'pictor.json'), sidecarText(record));
  library.history.put(record);
  return record;
}

/** Every saved image of the history as `localId#index` → its bytes. */
export async function savedImages(library: Library): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  for (const record of library.history.list({ limit: 500 }).items) {
    for (const image of record.images) {
      if (image.state === 'saved' && image.file) {
        const bytes = await readFile(join(library.root, ...image.file.split('/')));
        result.set(`${record.localId}#${image.index}`, bytes.toString('base64'));
      }
    }
  }
  return result;
}
