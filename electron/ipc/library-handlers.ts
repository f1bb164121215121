/**
 * IPC handlers of the `library:` channels: export the library to an archive, import an archive or
 * a folder, cancel. Every path comes from the main process's own dialogs (the page only says
 * "export" or "import from a folder"); the work is core's (core/library-archive), one operation at
 * a time; progress goes to the page as `library:progress` events, a few a second at most.
 */
import { MAX_LISTED_REFUSALS } from '../../shared/ipc/library-contract';
import type { RequestOutput } from '../../shared/ipc/contract';
import { sentence } from '../../shared/i18n/sentence';
import { UserFacingError } from '../core/errors/user-facing-error';
import type { Gallery } from '../core/gallery/gallery';
import type { HistoryStore } from '../core/history/history-store';
import { isAbort } from '../core/library-archive/archive-errors';
import { exportLibrary } from '../core/library-archive/export-library';
import { importLibrary } from '../core/library-archive/import-library';
import type { LibraryProgress } from '../core/library-archive/library-progress';
import type { LibraryDialogs } from '../ports/library-dialogs';
import type { Emit, HandlersOf } from './ipc-main-bridge';

export interface LibraryHandlerDeps {
  /** The one core (moving the library changes its folder, never the core). */
  readonly core: {
    readonly history: Pick<HistoryStore, 'get' | 'getByTaskId' | 'putMany' | 'list' | 'count'>;
    /** Its root, and the check its downloads pass, which imported images pass too. */
    readonly gallery: Pick<Gallery, 'root' | 'checkImage'>;
  };
  /** Absent where the host has no dialogs: both operations then say so. */
  readonly dialogs?: LibraryDialogs;
  readonly version: () => string;
  readonly emit: Emit;
  /** Least time between two progress events (the last one is always sent); default 100 ms. */
  readonly progressIntervalMs?: number;
}

const BUSY = sentence('error.library.busy');
const NO_DIALOGS = sentence('error.library.noDialogs');

export function libraryHandlers(deps: LibraryHandlerDeps): HandlersOf<'library'> {
  let running: AbortController | null = null;

  const progress = () => {
    let last = 0;
    return (update: LibraryProgress, force = false) => {
      const now = Date.now();
      if (!force && update.done < update.total && now - last < (deps.progressIntervalMs ?? 100))
        return;
      last = now;
      deps.emit('library:progress', update);
    };
  };

  /** Runs `work` (its dialog included) as the one library operation, with its own stop signal. */
  async function exclusive<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (running) throw new UserFacingError(BUSY, { code: 'failed' });
    const controller = new AbortController();
    running = controller;
    try {
      return await work(controller.signal);
    } finally {
      running = null;
    }
  }

  const dialogs = (): LibraryDialogs => {
    if (!deps.dialogs) throw new UserFacingError(NO_DIALOGS, { code: 'failed' });
    return deps.dialogs;
  };

  return {
    'library:export': async ({ localIds }): Promise<RequestOutput<'library:export'>> => {
      return exclusive(async (signal) => {
        const target = await dialogs().chooseExportFile();
        if (target === null || signal.aborted) return { summary: null };
        const { history, gallery } = deps.core;
        const report = progress();
        try {
          const summary = await exportLibrary({
            root: gallery.root,
            history,
            target,
            overwrite: true,
            ...(localIds ? { localIds } : {}),
            pictorVersion: deps.version(),
            signal,
            onProgress: (update) => report(update),
          });
          const { skipped, ...rest } = summary;
          return {
            summary: {
              ...rest,
              skipped: skipped.slice(0, MAX_LISTED_REFUSALS),
              skippedTotal: skipped.length,
            },
          };
        } catch (error) {
          if (isAbort(error)) {
            throw new UserFacingError(sentence('error.library.exportCancelled'), {
              code: 'failed',
            });
          }
          throw error;
        }
      });
    },
    'library:import': async ({ from }): Promise<RequestOutput<'library:import'>> => {
      return exclusive(async (signal) => {
        const source = await dialogs().chooseImportSource(from);
        if (source === null || signal.aborted) return { summary: null };
        const { history, gallery } = deps.core;
        const report = progress();
        const summary = await importLibrary({
          gallery,
          history,
          source,
          signal,
          onProgress: (update) => report(update),
        });
        if (summary.addedTasks + summary.addedImages > 0)
          deps.emit('gallery:changed', { reason: 'imported' });
        const { refused, ...rest } = summary;
        return {
          summary: {
            ...rest,
            refused: refused.slice(0, MAX_LISTED_REFUSALS),
            refusedTotal: refused.length,
          },
        };
      });
    },
    'library:cancel': () => {
      if (!running) return { cancelled: false };
      running.abort();
      return { cancelled: true };
    },
  };
}
