/**
 * The library opened to change images' triage (`rate`, `flag`, `tag`): its history, as `list`
 * opens it (library-reader.ts), with the core's triage actions over it and the XMP sidecars they
 * ask for. No engine, service client, image engine or network code is built or loaded
 * (one-record-start.test.ts); kept apart from library-reader.ts so `list` loads none of this.
 */
import { join } from 'node:path';
import { systemClock } from '../adapters/system-clock';
import { triageSidecars } from '../core/engine/triage-sidecars';
import { ensurePrivateFolder } from '../core/fs';
import { Gallery } from '../core/gallery/gallery-face';
import { HISTORY_FILE, HistoryPort, HistoryStore } from '../core/history';
import { triageInWorker, userWritesInWorker } from '../core/history';
import { TriageActions } from '../core/triage';
import type { CliIo } from './cli-io';
import type { CommonOptions } from './common-args';
import { cliLogger } from './library-reader';
import type { TriageLibrary } from './triage-apply';

/**
 * Opens the library in `common`'s folders for a change of images' triage, as the whole core opens
 * it for one (pictor-core.ts: the history and its in-thread port, the gallery made ready, the
 * core's triage actions), runs `body`, then waits for the change's XMP sidecars, written as the
 * engine writes them (core/engine `triageSidecars`), and closes the history.
 */
export async function changeLibraryTriage<T>(
  common: CommonOptions,
  io: CliIo,
  body: (library: TriageLibrary) => Promise<T>,
): Promise<T> {
  await ensurePrivateFolder(common.dataDir);
  const logger = cliLogger(common, io);
  // As the core's one-command host: the history's heavy writes on this thread, no worker started.
  const port = new HistoryPort(join(common.dataDir, HISTORY_FILE), { inThread: true });
  const history = HistoryStore.open(port.file, { logger });
  try {
    const now = () => systemClock.now();
    const gallery = new Gallery({ root: common.galleryDir, logger, now });
    await gallery.init();
    const writes = userWritesInWorker(history, port);
    const engine = triageSidecars({ gallery, get: (id) => history.get(id), writes, logger });
    const triage = new TriageActions({
      engine,
      writes: triageInWorker(history, port),
      triage: history.triage,
      now,
    });
    try {
      return await body({ history, triage });
    } finally {
      // As the core's close: the last writes' tasks announced, then their sidecars written.
      await triage.settled();
      await engine.flush();
    }
  } finally {
    await port.dispose();
    history.close();
  }
}
