/**
 * The triage module (electron/core/triage/), its face: the one file other modules and the fronts
 * import from it. Ratings, flags, tags and board membership of many images at once
 * (`TriageActions`: one history transaction, one Undo step), and the boards' tree (`Boards`).
 */
export { Boards } from './boards';
export { rejectsIn, rejectsMatching } from './rejects';
export { SmartBoards } from './smart-boards';
export { TriageActions, type TriageChange, type TriageOutcome } from './triage-actions';
export { TriageError } from './triage-error';
