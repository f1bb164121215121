/**
 * IPC handlers of the `archive:` channels: export the library to an archive, import an archive or
 * a folder, cancel. Every path comes from the main process's own dialogs (the page only says
 * "export" or "import from a folder"), asked once the operation has its turn; the work, one at a
 * time, its stop signal and its progress (`archive:progress`, a few a second at most) are the
 * core's (core/operations). Translations to core only.
 */
import { MAX_LISTED_REFUSALS } from '../../shared/ipc/archive-contract';
import type { RequestOutput } from '../../shared/ipc/contract';
import { sentence } from '../../shared/i18n/sentence';
import { UserFacingError } from '../core/errors';
import { isAbort, type LibraryProgress } from '../core/library';
import type { CoreOperations } from '../core/operations';
import type { LibraryDialogs } from '../ports/library-dialogs';
import type { Emit, HandlersOf } from './ipc-main-bridge';

export interface ArchiveHandlerDeps {
  /** The core's long operations: an export or an import is its `archive` operation. */
  readonly operations: Pick<CoreOperations, 'exportArchive' | 'importArchive' | 'cancel'>;
  /** Absent where the host has no dialogs: both operations then say so. */
  readonly dialogs?: LibraryDialogs;
  readonly version: () => string;
  readonly emit: Emit;
}

const NO_DIALOGS = sentence('error.library.noDialogs');

export function archiveHandlers(deps: ArchiveHandlerDeps): HandlersOf<'archive'> {
  const { operations, emit } = deps;
  const dialogs = (): LibraryDialogs => {
    if (!deps.dialogs) throw new UserFacingError(NO_DIALOGS, { code: 'failed' });
    return deps.dialogs;
  };
  const onProgress = (update: LibraryProgress) => emit('archive:progress', update);

  return {
    'archive:export': async ({ localIds }): Promise<RequestOutput<'archive:export'>> => {
      const chosen = dialogs();
      const summary = await operations
        .exportArchive(
          {
            target: () => chosen.chooseExportFile(),
            overwrite: true,
            ...(localIds ? { localIds } : {}),
            pictorVersion: deps.version(),
          },
          { onProgress },
        )
        .catch((error: unknown) => {
          if (!isAbort(error)) throw error;
          throw new UserFacingError(sentence('error.library.exportCancelled'), { code: 'failed' });
        });
      if (summary === null) return { summary: null };
      const { skipped, ...rest } = summary;
      return {
        summary: {
          ...rest,
          skipped: skipped.slice(0, MAX_LISTED_REFUSALS),
          skippedTotal: skipped.length,
        },
      };
    },
    'archive:import': async ({ from }): Promise<RequestOutput<'archive:import'>> => {
      const chosen = dialogs();
      const summary = await operations.importArchive(() => chosen.chooseImportSource(from), {
        onProgress,
      });
      if (summary === null) return { summary: null };
      if (summary.addedTasks + summary.addedImages > 0)
        emit('gallery:changed', { reason: 'imported' });
      const { refused, notes, ...rest } = summary;
      return {
        summary: {
          ...rest,
          notes: notes.slice(0, MAX_LISTED_REFUSALS),
          refused: refused.slice(0, MAX_LISTED_REFUSALS),
          refusedTotal: refused.length,
        },
      };
    },
    'archive:cancel': () => ({ cancelled: operations.cancel('archive') }),
  };
}
