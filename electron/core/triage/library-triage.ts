/**
 * The library opened for a change of images' triage alone (the CLI's `rate`, `flag` and `tag`),
 * as the whole core opens it for one (pictor-core.ts: the history and its in-thread port, the
 * gallery made ready, the triage actions over them), with no engine, service client or image
 * engine: the change's XMP sidecars are written as the engine writes them (core/engine
 * `triageSidecars`). `close` waits for the last change's announcement and its sidecars, then
 * closes the history.
 */
import { join } from 'node:path';
import type { Logger } from '../../ports/logger';
import { triageSidecars } from '../engine/sidecar-face';
import { Gallery } from '../gallery/gallery-face';
import { HISTORY_FILE, HistoryPort, HistoryStore } from '../history';
import { triageInWorker, userWritesInWorker } from '../history';
import { TriageActions } from './triage-actions';

export interface LibraryTriage {
  readonly history: HistoryStore;
  readonly triage: TriageActions;
  close(): Promise<void>;
}

export async function openLibraryTriage(options: {
  /** The library's data folder, made private by the caller. */
  readonly dataDir: string;
  readonly galleryDir: string;
  readonly logger: Logger;
  readonly now: () => number;
}): Promise<LibraryTriage> {
  const { logger, now } = options;
  // As the core's one-command host: the history's heavy writes on this thread, no worker started.
  const port = new HistoryPort(join(options.dataDir, HISTORY_FILE), { inThread: true });
  const history = HistoryStore.open(port.file, { logger });
  const closeHistory = async () => {
    await port.dispose();
    history.close();
  };
  try {
    const gallery = new Gallery({ root: options.galleryDir, logger, now });
    await gallery.init();
    const writes = userWritesInWorker(history, port);
    const engine = triageSidecars({ gallery, get: (id) => history.get(id), writes, logger });
    const triage = new TriageActions({
      engine,
      writes: triageInWorker(history, port),
      triage: history.triage,
      now,
    });
    return {
      history,
      triage,
      close: async () => {
        // As the core's close: the last writes' tasks announced, then their sidecars written.
        try {
          await triage.settled();
          await engine.flush();
        } finally {
          await closeHistory();
        }
      },
    };
  } catch (error) {
    await closeHistory();
    throw error;
  }
}
