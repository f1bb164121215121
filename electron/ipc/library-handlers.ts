/**
 * IPC handlers of the `library:` channels (Settings › Gallery folder › Change). The page never
 * names a path: `pick` opens the main process's own folder dialog and hands back the ticket
 * core/library/folder-choices.ts keeps for it, with what that folder and the current library hold
 * and whether it is the current library's folder (compared on disk, core/library/same-folder.ts);
 * `move` moves the library to the ticket's folder and `open` opens the library there, each as the
 * core's one folder operation (core/operations), its progress on `library:progress`, and does
 * nothing for the current folder; `cancel` ends the ticket of a question the user cancelled, and
 * stops a move before its switch. Translations to core only.
 */
import type { FolderChange } from '../../shared/ipc/contract';
import { MAX_LISTED_REFUSALS } from '../../shared/ipc/archive-contract';
import {
  type FolderChoices,
  GalleryMoveCancelled,
  type GalleryMoveHooks,
  inspectLibrary,
  isSameFolder,
  type OpenedLibrary,
  type RelocateResult,
} from '../core/library';
import type { CoreOperations } from '../core/operations';
import type { Emit, HandlersOf } from './ipc-main-bridge';

/** What the handlers use of the AppRuntime. */
export interface FolderRuntime {
  galleryDir(): string;
  moveGalleryTo(folder: string, hooks?: GalleryMoveHooks): Promise<RelocateResult>;
  openGalleryAt(folder: string): Promise<OpenedLibrary>;
}

export interface LibraryHandlerDeps {
  readonly runtime: FolderRuntime;
  /** The folders main's dialog returned, under their tickets. */
  readonly choices: Pick<FolderChoices, 'pick' | 'take' | 'cancel'>;
  /** The core's long operations: a move or an open is its `folder` operation. */
  readonly operations: Pick<CoreOperations, 'changeFolder' | 'cancel'>;
  /** The main process's own folder dialog: the only source of a new gallery folder. */
  readonly chooseFolder: () => Promise<string | null>;
  readonly emit: Emit;
}

export function libraryHandlers(deps: LibraryHandlerDeps): HandlersOf<'library'> {
  const { runtime, choices, operations } = deps;
  // The ticket is taken once the folder operation has its turn: a refused one keeps it.
  const change = (action: 'move' | 'open', ticket: string): Promise<FolderChange> =>
    operations.changeFolder(
      async (hooks) => {
        const path = choices.take(ticket);
        // The page offers neither for the current folder; a page that asks anyway moves nothing.
        if (await isSameFolder(path, runtime.galleryDir())) return unchanged(action);
        if (action === 'open') return opened(await runtime.openGalleryAt(path));
        try {
          return moved(await runtime.moveGalleryTo(path, hooks));
        } catch (error) {
          if (error instanceof GalleryMoveCancelled) return cancelled();
          throw error;
        }
      },
      { onProgress: (progress) => deps.emit('library:progress', progress) },
    );
  const outcome = (
    fields: Omit<FolderChange, 'path' | 'skipped' | 'skippedTotal'>,
    skipped: OpenedLibrary['skipped'] = [],
  ): FolderChange => ({
    ...fields,
    path: runtime.galleryDir(),
    skipped: skipped.slice(0, MAX_LISTED_REFUSALS),
    skippedTotal: skipped.length,
  });
  const moved = ({ moved, leftBehind }: RelocateResult) =>
    outcome({ outcome: 'moved', moved, leftBehind: leftBehind.length, imported: 0 });
  const opened = ({ imported, skipped }: OpenedLibrary) =>
    outcome({ outcome: 'opened', moved: 0, leftBehind: 0, imported }, skipped);
  const unchanged = (action: 'move' | 'open') =>
    action === 'move' ? moved({ moved: 0, leftBehind: [] }) : opened({ imported: 0, skipped: [] });
  const cancelled = () => outcome({ outcome: 'cancelled', moved: 0, leftBehind: 0, imported: 0 });

  return {
    'library:pick': async () => {
      const choice = await choices.pick(deps.chooseFolder);
      if (choice === null) return { choice: null };
      const current = runtime.galleryDir();
      const [library, now, same] = await Promise.all([
        inspectLibrary(choice.path),
        inspectLibrary(current),
        isSameFolder(choice.path, current),
      ]);
      return { choice: { ...choice, library, current: { ...now, path: current }, same } };
    },
    'library:move': ({ ticket }) => change('move', ticket),
    'library:open': ({ ticket }) => change('open', ticket),
    'library:cancel': () => {
      choices.cancel();
      return { cancelling: operations.cancel('folder') };
    },
  };
}
