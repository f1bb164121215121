/**
 * The triage module's face (electron/core/triage/): its doors are the exports below, the only names
 * other modules and the fronts import from it. Ratings, flags, tags and board membership of many
 * images at once (`TriageActions`: one history transaction, one Undo step), and the boards' tree
 * (`Boards`).
 *
 * - Triage (history v10, `core/history/triage-schema.ts`): an image's rating (1–5), flag, tags and
 *   boards live in its record (`shared/domain/triage.ts`), so the task's sidecar and an archive
 *   carry them and `rebuild` restores them; a pick is the image's `favourite`, which earlier
 *   versions read too (the UI draws and names it a flag, Pick; a star is a rating's). Every write
 *   of a record keeps what lists filter on: the images' `rating` and `flag` columns (partial
 *   indexes for rated and rejected images) and `image_tags` / `image_boards` rows by folded key;
 *   `boards` holds the tree, empty boards included. A change of many images is
 *   `TaskEngine.editMany`: one transaction in which each task is read under the write lock, so the
 *   app and a CLI never overwrite each other's change, and a board's rename, move or delete
 *   rewrites its images' records in the same transaction as the table. It reads 500 records a
 *   statement, writes a change of triage alone as the triage columns and the record
 *   (`core/history/triage-write.ts`), and reads back a record text this process wrote from a
 *   checked record without the schema again (`core/history/checked-texts.ts`: SHA-256 digests of
 *   such texts; any other text, a row another process or a hand changed, goes through the schema;
 *   `tests/hardening/hostile/checked-texts.test.ts` shows the schema's output a fixed point of its
 *   JSON). A sidecar's triage outside the rules (a rating of 9, a 65th tag) is read as none or
 *   dropped, and rebuild says so (`core/gallery/triage-notes.ts`). An import merges the triage of
 *   an image the library has: the newer rating and flag (by `triagedAt`), tags and boards unioned.
 */
export { Boards } from './boards';
export { rejectsIn, rejectsMatching } from './rejects';
export { SmartBoards } from './smart-boards';
export { TriageActions, type TriageChange, type TriageOutcome } from './triage-actions';
export { TriageError } from './triage-error';
