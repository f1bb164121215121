/**
 * The trash module's face (electron/core/trash/): its doors are the exports below, the only names
 * other modules and the fronts import from it. Deletes and removals with Undo, journaled.
 *
 * `electron/core/trash/` makes every delete and removal one durable step with a way back. The core
 * assembles it (`PictorCore.trash`, journal in the data folder) and the host gives it the system's
 * trash as a port (`ports/system-trash.ts`: `adapters/system-trash.ts` in the app checks the file
 * again and throws the user's sentence once; the e2e stand-ins move files into the user-data
 * folder; the CLI has none, so nothing leaves its trash folder there); `wireApp` replays it at
 * start and forwards its progress. A delete of images (`TrashOperations.deleteImages`) first writes
 * a batch file to the journal in the data folder (`trash-journal/`, 0700; never in the gallery, so
 * a crafted folder cannot say what comes back where), then moves each image's files
 * (`gallery/image-files.ts`: the image and its thumbnail, one list) into an entry folder of the
 * trash folder and marks the record `deleted`. Removing tasks holds their whole records in a batch the same way.
 * The history's writes of each (an image's files and state, a task removed or put back) run in the
 * history worker (`core/history/user-writes.ts`), so main's loop never waits on SQLite for them.
 * An Undo writes a restore file naming its entries before the first comes back; each file is linked
 * back under its old name (or a `-restored-N` one, never over anything; a name already holding the
 * same inode is an earlier try), the record says `saved`, and only then the held folder goes. At
 * start-up (and when a gallery is opened) `trash-replay.ts` finishes what was under way: an Undo
 * cut short is completed, a delete cut short before its record is taken back, and what was simply
 * held goes on to the system trash as at a quit. Operations run one at a time and report progress
 * (`trash:progress`); quitting waits for one under way (at most 30 s, the window says so) and
 * leaves the rest to the replay. `tests/hardening/crashes/trash-kill.test.ts` kills a child process
 * at seeded points of a 200-image Undo and finds all 300 images.
 *
 * An Undo does not wait for the delete it undoes. The deletes and removals asked and not ended are
 * kept with their items and a stop signal each (`trash/asked-deletes.ts`); `restoreImages` and
 * `restoreTasks` stop those that name any of their items before taking their turn. A stopped delete
 * moves no more, brings back what it had moved under one restore file (crash-safe as an Undo is)
 * and answers `canceled`; the restore then counts each item it named and left in place as back. The
 * window makes each delete (`renderer/store/gallery-delete.ts`) and removal of tasks
 * (`task-remove.ts`) one job (`trash-job.ts`) with one entry in the status area from its first
 * moment: running (main's `trash:progress` count, Undo), done (the real count, Undo), undoing (no
 * Undo: a spent one is not offered), undone. Each is also a step of the window's one Undo stack
 * (`renderer/store/undo-slice.ts`, with every triage change): Ctrl/Cmd+Z anywhere in the window
 * (`shell/undo-key.ts`, read before any screen sees it) and the entry's Undo run the same step.
 * Ctrl/Cmd+Z while it runs sends no more chunks and asks back what was sent. While a delete or an
 * Undo is under way, or the library's count says images remain, the gallery keeps its grid (and the
 * focus on it) under an "Updating…" line instead of the first run's empty state. Tested in
 * `tests/unit/core/trash/undo-while-running.test.ts` and, over this trash on a disk whose writes
 * take ten items every 140 ms of a manual clock (`tests/support/slow-disk.ts`), in
 * `tests/unit/renderer/gallery/gallery-delete-undo-large.test.tsx` and
 * `tests/unit/renderer/features/task-remove-undo.test.tsx`.
 */
export { TRASH_JOURNAL_DIR, TrashJournal } from './trash-journal';
export { TrashOperations, type TrashOperationsOptions } from './trash-operations';
export type { TrashOutcome, TrashProgress } from './trash-outcome';
