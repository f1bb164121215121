/**
 * The library module (electron/core/library/), its face: the one file other modules and the fronts
 * import from it. Where the library lives and how it comes and goes: `Library`, moves
 * (`relocate*`), opening a folder, `rebuildLibrary`, folder choices, archives (`archive/`).
 */
export {
  ArchiveNotWrittenError,
  ArchiveRefusedError,
  LibraryDiskError,
  isAbort,
} from './archive/archive-errors';
export { exportLibrary, type ExportSummary } from './archive/export-library';
export { importLibrary, type ImportSummary } from './archive/import-library';
export type { LibraryProgress } from './archive/library-progress';
export { FolderChoices } from './folder-choices';
export { Library, type LibraryFolderRecord } from './library';
export {
  GalleryMoveCancelled,
  type GalleryMoveHooks,
  type MoveProgress,
  type RelocateFaults,
  type RelocateResult,
} from './relocate';
export {
  type GalleryTasksAdded,
  importGalleryTasks,
  inspectLibrary,
  type OpenedLibrary,
} from './relocate-open';
export { isSameFolder } from './same-folder';
