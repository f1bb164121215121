/**
 * IPC handlers of the gallery's delete-with-undo and of its selection: one image or many to the
 * gallery's trash (core/trash/trash-operations.ts), back again while it is held, and a copy of
 * chosen images into a folder main asks for in its own dialog. Translations to core only.
 */
import type { galleryBatchRequests } from '../../shared/ipc/batch-contract';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { RequestOutput, TaskItem } from '../../shared/ipc/contract';
import { sentence } from '../../shared/i18n/sentence';
import { GalleryImageError } from '../core/gallery';
import type { CoreOperations } from '../core/operations';
import type { TrashOperations, TrashOutcome } from '../core/trash';
import { toIpcError } from './ipc-errors';
import type { Emit, IpcHandlers } from './ipc-main-bridge';

type GalleryBatchChannel = keyof typeof galleryBatchRequests;

export interface GalleryBatchDeps {
  /** The core's long operations: copies of chosen images, one at a time. */
  readonly operations: Pick<CoreOperations, 'exportImages'>;
  /** Deletes with a way back (core/trash), journaled. */
  readonly trash: Pick<TrashOperations, 'deleteImages' | 'restoreImages'>;
  /** The main process's own folder dialog: the only source of the export folder. */
  readonly chooseExportFolder: () => Promise<string | null>;
  readonly emit: Emit;
  /** A record as the page gets it (with the engine's live state). */
  readonly item: (record: TaskRecord) => TaskItem;
}

/** A trash operation's outcome as the page gets it: items, count failed, the first reason. */
export function batchOutcome(
  outcome: TrashOutcome,
  item: (record: TaskRecord) => TaskItem,
): RequestOutput<'gallery:deleteImages'> {
  const problem = outcome.problem === undefined ? undefined : toIpcError(outcome.problem);
  return {
    items: outcome.records.map(item),
    failed: outcome.failed,
    ...(outcome.canceled ? { canceled: true } : {}),
    ...(problem === undefined ? {} : { problem: problem.message }),
    ...(problem?.sentence === undefined ? {} : { problemSentence: problem.sentence }),
  };
}

export function galleryBatchHandlers(
  deps: GalleryBatchDeps,
): Pick<IpcHandlers, GalleryBatchChannel> {
  const { emit, item } = deps;
  return {
    'gallery:deleteImage': async (ref) => {
      const outcome = await deps.trash.deleteImages([ref]);
      const [record] = outcome.records;
      if (record === undefined) {
        throw outcome.problem ?? new GalleryImageError(sentence('error.gallery.deleteUndone'));
      }
      emit('gallery:changed', { reason: outcome.canceled ? 'restored' : 'deleted' });
      return item(record);
    },
    'gallery:deleteImages': async ({ images }) => {
      const outcome = batchOutcome(await deps.trash.deleteImages(images), item);
      if (outcome.items.length > 0) {
        emit('gallery:changed', { reason: outcome.canceled ? 'restored' : 'deleted' });
      }
      return outcome;
    },
    'gallery:undoDelete': async ({ images }) => {
      const outcome = batchOutcome(await deps.trash.restoreImages(images), item);
      if (outcome.items.length > 0) emit('gallery:changed', { reason: 'restored' });
      return outcome;
    },
    'gallery:exportImages': async ({ images }) => {
      const folder = await deps.chooseExportFolder();
      if (folder === null) return { folder: null, copied: 0, failed: 0 };
      const onProgress = (progress: { done: number; total: number }) =>
        emit('export:progress', progress);
      const { copied, failed, skipped } = await deps.operations.exportImages({ images }, folder, {
        onProgress,
      });
      return { folder, copied, failed: failed + skipped };
    },
  };
}
