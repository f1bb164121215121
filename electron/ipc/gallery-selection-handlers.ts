/**
 * IPC handlers of a gallery selection as a whole: the images "Select all" names (main finds them
 * from the filters the page gives, never from a list the page made up) and starring many images
 * in one request. Translations to core only.
 */
import { withImageFavourite } from '../../shared/domain/favourites';
import type { ImageState, TaskRecord } from '../../shared/domain/task-record';
import type { IpcError, TaskItem } from '../../shared/ipc/contract';
import { MAX_SELECT_ALL } from '../../shared/ipc/contract';
import type { TaskEngine } from '../core/engine/task-engine';
import { findImage } from '../core/gallery/gallery-images';
import type { HistoryStore } from '../core/history/history-store';
import { toIpcError } from './ipc-errors';
import type { IpcHandlers } from './ipc-main-bridge';

type SelectionChannel = 'gallery:selectAll' | 'gallery:setFavourites';

export interface GallerySelectionDeps {
  readonly core: {
    readonly engine: TaskEngine;
    readonly history: Pick<HistoryStore, 'imageKeys' | 'countImages'>;
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
      const query = { ...filters, states: states ?? visibleStates };
      const { history } = core;
      return {
        images: history.imageKeys(query, MAX_SELECT_ALL),
        total: history.countImages(query),
      };
    },
    'gallery:setFavourites': ({ images, favourite }) => {
      const { engine } = core;
      // One edit (one sidecar written) per task, however many of its images were named.
      const byTask = new Map<string, Set<number>>();
      for (const { localId, index } of images) {
        byTask.set(localId, (byTask.get(localId) ?? new Set()).add(index));
      }
      const items: TaskItem[] = [];
      let failed = 0;
      let problem: IpcError | undefined;
      for (const [localId, indexes] of byTask) {
        try {
          for (const index of indexes) findImage(engine, { localId, index });
          const record = engine.edit(localId, (record) =>
            [...indexes].reduce(
              (next, index) => withImageFavourite(next, index, favourite),
              record,
            ),
          );
          items.push(item(record));
        } catch (error) {
          failed += indexes.size;
          problem ??= toIpcError(error);
        }
      }
      return {
        items,
        failed,
        ...(problem === undefined ? {} : { problem: problem.message }),
        ...(problem?.sentence === undefined ? {} : { problemSentence: problem.sentence }),
      };
    },
  };
}
