/**
 * The engine module's face (electron/core/engine/): its doors are the exports below, the only names
 * other modules and the fronts import from it. Submit, poll, download: the task engine.
 *
 * A task's life: `submitting` → `submit_failed` (the service refused: nothing was created) |
 * `submit_unknown` (the request may have reached the service; never resubmitted) | `processing` →
 * `completed` | `failed` | `not_found`. A processing task may be on hold: `timed_out` (watch
 * timeout), `awaiting_key` (no key for its base URL or account), `key_rejected` (401/403). The
 * record is written before the submit, the id the moment it arrives. Each image of a completed task
 * has its own state: `pending`, `saved`, `expired`, `invalid`, `deleted`.
 *
 * Resume after a quit or a crash, never a second submit (`core/engine/send-mark.ts`,
 * `stored-tasks.ts`, `unsent-tasks.ts`). A batch ("Generate 3", a template's expansion: up to 100
 * tasks) and a compare store all their tasks first, then send them a few at a time (at most 4
 * submit requests out to one address, and no more of a key's running tasks than its provider
 * allows), so a process that ends meanwhile leaves some stored but never sent. The record's
 * `sendState` tells them apart: `queued` is written with the task (by this version and later only),
 * `sent` replaces it on disk before each attempt is handed to the network (a compare-and-set in one
 * transaction, while the process holds the task's lease, so of two processes at most one marks and
 * sends it; a mark the disk refuses sends nothing and says so), `queued` again after a 429 (the
 * service took nothing), and the mark is dropped once the service has the task. At start a
 * `submitting` task marked `queued` is sent under its own local id, with its request, batch,
 * compare, template and board, through the same in-flight limits (a batch's first alone, the others
 * once the service took it); one marked `sent`, or with no mark (an earlier version's record, whose
 * request may have left), becomes `submit_unknown` as before, or `submit_failed` for an earlier
 * version's record that waited after a 429. A task sent at start was priced and checked against the
 * spending caps (a hard cap passed only with the user's yes) when it was stored, and counted by the
 * ledger since: it is sent without asking again. A command that does not resume (`generate`,
 * `track`) leaves queued tasks to the app or `pictor resume`; a task read back from a sidecar or an
 * archive (`imported`) is never sent on its word; a task removed while still queued is not sent,
 * now or after a restart (its removal is its end: removed-tasks.ts; one removed while its request
 * was out, which the service refused with a 429, ends there too), and its Undo sends it once. Tests: `tests/unit/core/engine/engine-unsent.test.ts`,
 * `tests/integration/providers/unsent-resume.test.ts` (a batch past BFL's cap),
 * `tests/integration/compare/compare-unsent.test.ts` (two dialects),
 * `tests/integration/core/unsent-shared.test.ts` (two processes),
 * `tests/integration/core/unsent-kill.test.ts` (the CLI killed with SIGKILL).
 *
 * The user may ask a running task's service to cancel it (`core/batch/cancel-tasks.ts`, the
 * window's and the CLI's, one task at a time): the record keeps when (`canceledByUserAt`), the task
 * is polled at once, and it ends `failed` with the error kind `canceled` when the service says so,
 * or keeps its images when the service finished it first. "Stop watching" (a service without
 * cancel) holds it as `timed_out`, with `stoppedWatchingAt`.
 */
export { followSubmits } from './account-refusal';
export { isBookkeepingOnly } from './bookkeeping-writes';
export { engineFiles } from './engine-files';
export {
  type EngineAdmission,
  EngineInputError,
  type EngineWorkflows,
  type TaskEngineOptions,
  type TaskUpdate,
} from './engine-types';
export { askToPassHardCaps, type HardCapConsent, sameCapIn } from './hard-cap-consent';
export { checkTarget } from './target-check';
export { neverSent } from './send-mark';
export { TaskEngine } from './task-engine';
export { ranRequestOf, withWorkflow } from './request-workflow';
