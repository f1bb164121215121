/**
 * IPC handlers of a gallery selection as a whole: the images "Select all" names (main finds them
 * from the filters the page gives, never from a list the page made up) and starring many images
 * in one request. Translations to core only.
 */
import type { gallerySelectionRequests } from '../../shared/ipc/batch-contract';
import type { ImageState, TaskRecord } from '../../shared/domain/task-record';
import type { TaskItem } from '../../shared/ipc/contract';
import { MAX_SELECT_ALL } from '../../shared/ipc/contract';
import { BatchTaskActions } from '../core/batch';
import type { TaskEngine } from '../core/engine';
import type { HistoryStore } from '../core/history';
import { batchOutcome } from './gallery-batch-handlers';
import type { IpcHandlers } from './ipc-main-bridge';
import { withSmartRules } from './smart-rules';
import type { SmartBoards } from '../core/triage';

type SelectionChannel = keyof typeof gallerySelectionRequests;

export interface GallerySelectionDeps {
  readonly core: {
    readonly engine: TaskEngine;
    readonly history: Pick<HistoryStore, 'imageKeys' | 'countImages'>;
    readonly smartBoards: Pick<SmartBoards, 'rulesOf'>;
  };
  /** What the gallery shows unless asked otherwise (gallery-handlers.ts). */
  readonly visibleStates: readonly ImageState[];
  /** A record as the page gets it (with the engine's live state). */
  readonly item: (record: TaskRecord) => TaskItem;
}

export function gallerySelectionHandlers(
  deps: GallerySelectionDeps,
): Pick<IpcHandlers, SelectionChannel> {
  const { core, visibleStates, item } = deps;
  return {
    'gallery:selectAll': ({ states, ...filters }) => {
      const query = {
        ...withSmartRules(core.smartBoards, filters),
        states: states ?? visibleStates,
      };
      const { history } = core;
      return {
        images: history.imageKeys(query, MAX_SELECT_ALL),
        total: history.countImages(query),
      };
    },
    'gallery:setFavourites': ({ images, favourite }) =>
      batchOutcome(new BatchTaskActions(core.engine).setImageFavourites(images, favourite), item),
  };
}
