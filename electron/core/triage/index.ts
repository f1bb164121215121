/**
 * The triage module's face (electron/core/triage/): its doors are the exports below, the only names
 * other modules and the fronts import from it. Ratings, flags, tags and board membership of many
 * images at once (`TriageActions`: one history transaction, written by the history worker off
 * main's thread, one Undo step; asynchronous for every front), and the boards' tree (`Boards`).
 *
 * - Triage (history v10, `core/history/triage-schema.ts`; in its own rows from v16,
 *   `core/history/triage-rows-schema.ts`): an image's rating (1–5), flag, tags and boards
 *   (`shared/domain/triage.ts`) and the task's star are stored only in the history's rows: the
 *   images' `rating`, `flag`, `favourite` and `triaged_at` columns (partial indexes for rated and
 *   rejected images), `image_tags` / `image_boards` rows (folded key, the name as written, the
 *   place in the list) and `task_triage` (the time of a change of triage alone). The record's
 *   JSON holds none of it; every read puts it back (`core/history/triage-compose.ts`), so
 *   records, the task's sidecar and an archive still carry it and `rebuild` restores it. A pick
 *   is the image's `favourite`, which earlier versions read too (the UI draws and names it a
 *   flag, Pick; a star is a rating's); `boards` holds the tree, empty boards included.
 * - A write of a task's record (the engine's: status, polls, downloads) keeps the stored triage
 *   of the images the task already had (`core/history/image-rows.ts`), and the engine's own
 *   record takes the stored user edits in the same write (`core/engine/user-edits-of.ts`), so
 *   no process's write carries an old star back. A change of many images is one transaction
 *   of the history worker (`core/history/triage-writes.ts`) in which each task is read under the
 *   write lock; main then announces the tasks and writes their XMP sidecars a chunk at a time. A
 *   board's change is `TaskEngine.editMany`: one transaction in which each task is read, and
 *   a board's rename, move or delete rewrites its images' rows in the same transaction as the
 *   table. A change of triage alone (one definition: `imagesOnly`,
 *   `core/history/triage-change.ts`) is written to the triage rows only, never the record
 *   (`core/history/triage-write.ts`; at most 1 KB of the file per image rated,
 *   `tests/unit/core/history/triage-rows.test.ts`). A record text this process wrote from a
 *   checked record is read back without the schema again (`core/history/checked-texts.ts`).
 * - A sidecar's triage outside the rules (a rating of 9, a 65th tag) is read as none or
 *   dropped, and rebuild says so (`core/gallery/triage-notes.ts`). An import merges the triage of
 *   an image the library has: the newer rating and flag (by `triagedAt`), tags and boards unioned.
 */
export { Boards } from './boards';
export { openLibraryTriage } from './library-triage';
export { rejectsIn, rejectsMatching } from './rejects';
export { SmartBoards } from './smart-boards';
export { TriageActions, type TriageChange, type TriageOutcome } from './triage-actions';
export { TriageError } from './triage-error';
