/**
 * The library opened to change images' triage (`rate`, `flag`, `tag`): its history, as `list`
 * opens it (library-reader.ts), with the core's triage actions over it and the XMP sidecars they
 * ask for. No engine, service client, image engine or network code is built or loaded
 * (one-record-start.test.ts); kept apart from library-reader.ts so `list` loads none of this.
 */
import { systemClock } from '../adapters/system-clock';
import { ensurePrivateFolder, holdLibraryOpen } from '../core/fs';
import { openLibraryTriage } from '../core/triage';
import type { CliIo } from './cli-io';
import type { CommonOptions } from './common-args';
import { cliLogger } from './library-reader';
import type { TriageLibrary } from './triage-apply';

/**
 * Opens the library in `common`'s folders for a change of images' triage (core/triage
 * `openLibraryTriage`), runs `body`, then waits for the change's XMP sidecars and closes it.
 */
export async function changeLibraryTriage<T>(
  common: CommonOptions,
  io: CliIo,
  body: (library: TriageLibrary) => Promise<T>,
): Promise<T> {
  // 0700: the history says what the user generated; other local users may exist.
  await ensurePrivateFolder(common.dataDir);
  // Its sidecar writes go into the gallery: no other process moves it meanwhile (core/fs/library-holds.ts).
  const hold = await holdLibraryOpen(common.dataDir);
  try {
    const library = await openLibraryTriage({
      dataDir: common.dataDir,
      galleryDir: common.galleryDir,
      logger: cliLogger(common, io),
      now: () => systemClock.now(),
    });
    try {
      return await body(library);
    } finally {
      await library.close();
    }
  } finally {
    await hold();
  }
}
