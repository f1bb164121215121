/**
 * IPC handlers of a gallery selection as a whole: the images "Select all" names (main finds them
 * from the filters the page gives, never from a list the page made up; the history worker walks
 * the library for them, library-reads.ts, so main's loop does not). Its flags, ratings, tags
 * and boards are triage's (triage-handlers.ts). Translations to core only.
 */
import type { gallerySelectionRequests } from '../../shared/ipc/batch-contract';
import type { ImageState } from '../../shared/domain/task-record';
import { MAX_SELECT_ALL } from '../../shared/ipc/contract';
import type { LibraryReads } from '../core/history';
import type { IpcHandlers } from './ipc-main-bridge';
import { withSmartRules } from './smart-rules';
import type { SmartBoards } from '../core/triage';

type SelectionChannel = keyof typeof gallerySelectionRequests;

export interface GallerySelectionDeps {
  readonly core: {
    readonly libraryReads: Pick<LibraryReads, 'selection'>;
    readonly smartBoards: Pick<SmartBoards, 'rulesOf'>;
  };
  /** What the gallery shows unless asked otherwise (gallery-handlers.ts). */
  readonly visibleStates: readonly ImageState[];
}

export function gallerySelectionHandlers(
  deps: GallerySelectionDeps,
): Pick<IpcHandlers, SelectionChannel> {
  const { core, visibleStates } = deps;
  return {
    'gallery:selectAll': ({ states, ...filters }) =>
      core.libraryReads.selection(
        { ...withSmartRules(core.smartBoards, filters), states: states ?? visibleStates },
        MAX_SELECT_ALL,
      ),
  };
}
