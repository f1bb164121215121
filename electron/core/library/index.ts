/**
 * The library module's face (electron/core/library/): its doors are the exports below, the only
 * names other modules and the fronts import from it. Where the library lives and how it comes and
 * goes: `Library`, moves (`relocate*`), opening a folder, `rebuildLibrary`, folder choices,
 * archives (`archive/`).
 *
 * `openPictorCore` (core/pictor-core.ts) builds the history, gallery, service client, task engine,
 * thumbnail maker and `Library` over one data folder; the CLI, the app and the harnesses all start
 * there. The app's runtime (app/app-runtime.ts) opens one core at start and keeps it until it
 * quits: handlers and subscriptions are bound to it once, and `wire-app.ts` starts its engine once
 * (`tests/integration/ipc/wire-app.test.ts` counts the start calls across several moves).
 *
 * Moving the library (Settings › Gallery folder: `library:move`, or opening a library elsewhere:
 * `library:open`) changes the core's folder in place, through `Library.moveTo(folder, hooks)` and
 * `Library.openAt(folder)` (core/library/library.ts), one change at a time. `Library` keeps that
 * queue itself; the app's settings and keys have their own (`AppRuntime`), so a theme change or a
 * key goes through while a move runs (`tests/integration/core/app-runtime.test.ts` holds a move and
 * changes both):
 *
 * 1. `TaskEngine.pause()`: no poll, download or sidecar write starts; the work under way finishes
 *    into the old folder; sidecars asked for meanwhile wait. Leases stay held and renewed, live
 *    records and task ids stay; submits go on (they touch no gallery). The thumbnail maker stops.
 * 2. `relocateGallery` copies every task folder and checks it (core/library/relocate.ts), or
 *    `openLibraryAt` checks the chosen folder; then the library's folder port
 *    (`LibraryFolderRecord`, which the app's runtime gives `openPictorCore`) records the new folder
 *    (the setting) and `Gallery.reroot(folder)` makes the gallery work there. Records keep their
 *    folders, relative to the root. Only then are the old copies removed.
 * 3. `TaskEngine.resume()`: every watched task polls again soon on its own id (never submitted
 *    again), pending images are downloaded into the new folder, held sidecars are written, tasks
 *    that joined the history (a library opened elsewhere) are taken up as at start.
 *
 * A move that stops, is cancelled or is refused before the switch leaves the setting, the gallery
 * and every task where they were, and the core resumes on the old folder. The trash follows the
 * gallery's root; `TrashOperations.reroot(change)` runs a change of folder as one of the trash's
 * operations: images held for Undo go on to the system trash before, the journal is replayed for
 * the new folder after, and a delete or Undo asked for meanwhile waits, then acts on the new
 * folder. A trash given the core's library runs this way around every change of its folder, whoever
 * asks for it (`Library.aroundChanges`; `tests/integration/core/library-trash.test.ts` moves
 * through `core.library` alone).
 *
 * The library archive (`archive/`):
 *
 * `electron/core/library/archive/` moves a library: `exportLibrary` writes the tasks (all, or the
 * local ids named) to a ZIP with yazl, a page of the history at a time, each file read through the
 * gallery's checked handles, then a SHA-256 manifest; `importLibrary` takes a ZIP or a folder as an
 * `ImportSource` (`zip-source.ts`: the central directory checked with yauzl, the whole archive
 * refused before anything is written, every byte read through the archive's own reader,
 * `archive-file.ts`; `folder-source.ts`: the gallery's crafted-folder rules), plans tasks from the
 * Pictor layout (`import-plan.ts`), refuses a source that would not fit on the gallery's disk
 * (`statfs`, with a margin), and imports each (`import-task.ts`): a new task staged in
 * `.pictor-tmp` and renamed into place, a known one merged by image SHA-256 with new images
 * hard-linked under free names (`import-merge.ts`). Every imported image passes the download's own
 * check (`Gallery.checkImage`: header, pixel limit, full decode), which also gives its size. A
 * history write that fails takes back the folders and images it would have recorded
 * (`batched-history.ts`); a folder or image an earlier import left without its record is taken as
 * that task's, never copied again. Both take an `AbortSignal` and report progress. An import reads
 * a few tasks at once from one archive; the reads take turns in a queue the archive owns (yauzl's
 * `fromRandomAccessReader`, not its `fd-slicer`), so a stop at any point (Cancel, Ctrl+C, a full
 * disk, a refused entry) cancels the reads still waiting for a stream that is gone, waits for the
 * one running and closes the file before the import ends: nothing is thrown at the process, no read
 * waits for ever, and the operation's slot is free. A write into the library the disk refuses
 * (full, read-only, over quota) ends the import with LibraryDiskError's sentence (the CLI's exit
 * 5). An export writes its archive through `export-target.ts` (a `.part` file of its own name
 * beside the target, synced, then renamed or linked into place; removed on any failure): a step on
 * that file that fails (its folder gone, a file where a folder should be, the disk full, read-only
 * or not writable) ends the export with ArchiveNotWrittenError's sentence naming the file and why
 * (the window's Library section shows it; the CLI's exit 5); an image it could not read is a
 * refusal in the summary, never that error. The other files the user picks in main's save dialog
 * (an image's Save as…, `core/gallery/image-copy.ts`; the cost ledger's CSV; a templates export)
 * are written the same way by `core/fs/chosen-file.ts`: a `.part` file beside the target, renamed
 * over it, and ChosenFileNotSavedError's sentence (the same reasons, `chosenPlaceParams`) when a
 * step on it fails; the file that was there is left byte for byte (the CLI's `template export`:
 * exit 5). A file replaced keeps its permissions (`modeToKeep`: a private 0600 file stays private,
 * and the `.part` has them before its first byte); the rename gives it a new inode, so hard links
 * and ACLs of the old file are not carried over, and a symbolic link at the target is replaced by
 * the file rather than written through. The CLI (`export`, `import`) and IPC (`archive:*`,
 * ipc/archive-handlers.ts, main's own dialogs through the `LibraryDialogs` port) run them as the
 * same core operation (electron/core/operations/index.ts).
 */
export {
  ArchiveNotWrittenError,
  ArchiveRefusedError,
  LibraryDiskError,
  isAbort,
} from './archive/archive-errors';
export { exportLibrary, importLibrary } from './archive-operations';
export type { ExportSummary } from './archive/export-library';
export type { ImportSummary } from './archive/import-library';
export type { KeptIdScrubber } from './archive/import-kept-id';
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
