/**
 * The trash module (electron/core/trash/), its face: the one file other modules and the fronts
 * import from it. Deletes and removals with Undo, journaled.
 */
export { TRASH_JOURNAL_DIR, TrashJournal } from './trash-journal';
export { TrashOperations, type TrashOperationsOptions } from './trash-operations';
export { OutcomeBuilder, type TrashOutcome, type TrashProgress } from './trash-outcome';
