/**
 * IPC handlers of the `gallery:` channels: listing from the history, and actions on files inside
 * the gallery. Finding and deleting images is core's (core/gallery/gallery-images.ts); the OS
 * actions are the shell's; these handlers translate and delegate.
 */
import { VISIBLE_STATES } from '../../shared/domain/task-record';
import type { TaskItem } from '../../shared/ipc/contract';
import type { TaskEngine } from '../core/engine';
import type { CoreOperations } from '../core/operations';
import { findImage, type Gallery, type ImageRef, savedFile } from '../core/gallery';
import type { PictorCore } from '../core/pictor-core';
import type { TrashOperations } from '../core/trash';
import { galleryBatchHandlers } from './gallery-batch-handlers';
import { galleryOutgoingHandlers } from './gallery-outgoing-handlers';
import { gallerySelectionHandlers } from './gallery-selection-handlers';
import type { HistoryStore, LibraryReads } from '../core/history';
import type { PendingThumbnails } from '../core/download';
import type { ShellActions } from '../ports/shell-actions';
import { unwrap } from './ipc-errors';
import { withSmartRules } from './smart-rules';
import type { OpenViews } from './open-views';
import type { SmartBoards } from '../core/triage';
import type { Emit, HandlersOf } from './ipc-main-bridge';

export interface GalleryHandlerDeps {
  /** The one core (moving the library changes its folder, never the core). */
  readonly core: {
    readonly engine: TaskEngine;
    readonly history: Pick<HistoryStore, 'listImages' | 'countImages' | 'imageKeys' | 'get'>;
    /**
     * The count, the models and the anchors of positions, read in the history worker
     * (core/history/library-reads.ts).
     */
    readonly libraryReads: LibraryReads;
    readonly gallery: Pick<Gallery, 'resolve' | 'root'>;
    readonly thumbnails: Pick<PendingThumbnails, 'kick'>;
    /** Smart boards: a filter naming one lists by its rules. */
    readonly smartBoards: Pick<SmartBoards, 'rulesOf'>;
    /** Its long operations: chosen images copied into a folder. */
    readonly operations: Pick<CoreOperations, 'exportImages'>;
    /** What Save as, Copy image and a drag out write, through the core's closing gate. */
    readonly outgoingImages: PictorCore['outgoingImages'];
    /** The gallery folder "Open gallery folder" opens, made through the core's closing gate. */
    readonly galleryFolder: PictorCore['galleryFolder'];
  };
  readonly shell: Pick<
    ShellActions,
    'reveal' | 'copyImage' | 'chooseSaveAsFile' | 'startDrag' | 'openGalleryFolder'
  >;
  readonly emit: Emit;
  /** Deletes with a way back (core/trash); the wiring owns it (replay at start, empty at quit). */
  readonly trash: Pick<TrashOperations, 'deleteImages' | 'restoreImages'>;
  /**
   * The main process's own folder dialog for exports: the only source of an export folder.
   * (Changing the gallery folder is the `library:` channels', which ask before moving.)
   */
  readonly chooseExportFolder: () => Promise<string | null>;
  /** The page's open views: a first page of the list names the gallery's filters. */
  readonly views?: Pick<OpenViews, 'showGallery'>;
}

/**
 * The records of a page's images, one per task, as the page's records table holds them (the
 * gallery's images are ids over it: renderer/store/records-slice.ts).
 */
function recordsOf(
  core: GalleryHandlerDeps['core'],
  items: readonly { readonly localId: string }[],
): TaskItem[] {
  const localIds = new Set(items.map((item) => item.localId));
  return [...localIds].flatMap((localId) => {
    const record = core.history.get(localId);
    return record ? [core.engine.item(record)] : [];
  });
}

export function galleryHandlers(deps: GalleryHandlerDeps): HandlersOf<'gallery'> {
  const { core, shell, trash } = deps;
  /** The saved file of an image, resolved inside the current gallery. */
  const fileOf = (ref: ImageRef) => savedFile(core.gallery, findImage(core.engine, ref).image);
  return {
    'gallery:list': ({ states, cursor, ...query }) => {
      // The gallery is being shown (its first page): thumbnails left pending are made now, and
      // its filters are the open view's.
      if (!cursor) {
        void core.thumbnails.kick();
        const { limit: _limit, offset: _offset, sort: _sort, ...filters } = query;
        deps.views?.showGallery({ ...filters, states: states ?? VISIBLE_STATES });
      }
      const listed = {
        ...withSmartRules(core.smartBoards, query),
        states: states ?? VISIBLE_STATES,
      };
      const page = core.history.listImages({ ...listed, cursor: cursor ?? null });
      // The order's anchors walked in the worker for the pages by position to come; nothing
      // when main holds them all (position-prebuild.ts).
      if (!cursor) void core.libraryReads.positions(listed);
      return { ...page, records: recordsOf(core, page.items) };
    },
    'gallery:models': () => core.libraryReads.models(),
    'gallery:count': ({ states, ...query }) =>
      core.libraryReads.count({
        ...withSmartRules(core.smartBoards, query),
        states: states ?? VISIBLE_STATES,
      }),
    ...gallerySelectionHandlers({ core, visibleStates: VISIBLE_STATES }),
    ...galleryBatchHandlers({
      operations: core.operations,
      trash,
      chooseExportFolder: deps.chooseExportFolder,
      emit: deps.emit,
      item: (record) => core.engine.item(record),
    }),
    'gallery:reveal': async (ref) => unwrap(await shell.reveal(fileOf(ref))),
    ...galleryOutgoingHandlers({ core, shell }),
    'gallery:openFolder': async () =>
      unwrap(await shell.openGalleryFolder(await core.galleryFolder())),
  };
}
