/**
 * IPC handlers of the gallery's delete-with-undo and of its selection: one image or many to the
 * gallery's trash (core/gallery/gallery-trash.ts), back again while it is held, and a copy of
 * chosen images into a folder main asks for in its own dialog. Translations to core only.
 */
import type { TaskRecord } from '../../shared/domain/task-record';
import type { IpcError, RequestOutput, TaskItem } from '../../shared/ipc/contract';
import { exportImages } from '../core/batch/export-images';
import type { TaskEngine } from '../core/engine/task-engine';
import type { Gallery } from '../core/gallery/gallery';
import {
  deleteImage,
  restoreImage,
  type DeleteImageDeps,
  type ImageRef,
} from '../core/gallery/gallery-images';
import type { TrashShelf } from '../core/gallery/gallery-trash';
import { toIpcError } from './ipc-errors';
import type { Emit, IpcHandlers } from './ipc-main-bridge';

type GalleryBatchChannel =
  'gallery:deleteImage' | 'gallery:deleteImages' | 'gallery:undoDelete' | 'gallery:exportImages';

export interface GalleryBatchDeps {
  readonly core: () => {
    readonly engine: TaskEngine;
    readonly gallery: Pick<Gallery, 'resolve' | 'root'>;
  };
  readonly trash: TrashShelf;
  /** The main process's own folder dialog: the only source of the export folder. */
  readonly chooseExportFolder: () => Promise<string | null>;
  readonly emit: Emit;
  /** A record as the page gets it (with the engine's live state). */
  readonly item: (record: TaskRecord) => TaskItem;
}

type BatchOutcome = RequestOutput<'gallery:deleteImages'>;

/** Runs `act` on each image in turn; one failing does not stop the rest. */
async function each(
  refs: readonly ImageRef[],
  act: (ref: ImageRef) => Promise<TaskRecord>,
  item: (record: TaskRecord) => TaskItem,
): Promise<BatchOutcome> {
  const changed = new Map<string, TaskRecord>();
  let failed = 0;
  let problem: IpcError | undefined;
  for (const ref of unique(refs)) {
    try {
      const record = await act(ref);
      changed.set(record.localId, record);
    } catch (error) {
      failed += 1;
      problem ??= toIpcError(error);
    }
  }
  return {
    items: [...changed.values()].map(item),
    failed,
    ...(problem === undefined ? {} : { problem: problem.message }),
    ...(problem?.sentence === undefined ? {} : { problemSentence: problem.sentence }),
  };
}

function unique(refs: readonly ImageRef[]): ImageRef[] {
  const seen = new Map(refs.map((ref) => [`${ref.localId}/${String(ref.index)}`, ref]));
  return [...seen.values()];
}

export function galleryBatchHandlers(
  deps: GalleryBatchDeps,
): Pick<IpcHandlers, GalleryBatchChannel> {
  const { core, emit, item } = deps;
  const imageDeps = (): DeleteImageDeps => {
    const { engine, gallery } = core();
    return { records: engine, files: gallery, trash: deps.trash.for(gallery.root) };
  };
  return {
    'gallery:deleteImage': async (ref) => {
      const record = await deleteImage(imageDeps(), ref);
      emit('gallery:changed', { reason: 'deleted' });
      return item(record);
    },
    'gallery:deleteImages': async ({ images }) => {
      const outcome = await each(images, (ref) => deleteImage(imageDeps(), ref), item);
      if (outcome.items.length > 0) emit('gallery:changed', { reason: 'deleted' });
      return outcome;
    },
    'gallery:undoDelete': async ({ images }) => {
      const outcome = await each(images, (ref) => restoreImage(imageDeps(), ref), item);
      if (outcome.items.length > 0) emit('gallery:changed', { reason: 'restored' });
      return outcome;
    },
    'gallery:exportImages': async ({ images }) => {
      const folder = await deps.chooseExportFolder();
      if (folder === null) return { folder: null, copied: 0, failed: 0 };
      const { engine, gallery } = core();
      const chosen = new Map<string, Set<number>>();
      for (const { localId, index } of images) {
        chosen.set(localId, (chosen.get(localId) ?? new Set()).add(index));
      }
      // The tasks' export, over records narrowed to the chosen images.
      const get = (localId: string): TaskRecord | undefined => {
        const record = engine.get(localId);
        const indexes = chosen.get(localId);
        if (!record || !indexes) return undefined;
        return { ...record, images: record.images.filter((image) => indexes.has(image.index)) };
      };
      const { copied, failed, skipped } = await exportImages(
        { get, gallery },
        [...chosen.keys()],
        folder,
      );
      return { folder, copied, failed: failed + skipped };
    },
  };
}
