/**
 * The history module's face (electron/core/history/): its doors are the exports below, the only
 * names other modules and the fronts import from it. The SQLite history of tasks, its queries and
 * the ledger's rows.
 *
 * - Prompt history (history v11, `core/history/prompt-history-schema.ts`, `prompt-history.ts`): one
 *   row per distinct prompt (its exact text), with when it was last sent, how often, and a pin; the
 *   newest 500 unpinned kept, at most 100 pins beside them. Every submit notes the prompts it sent
 *   in the core (`engine/new-tasks.ts`; a template's expansion notes each), so the CLI's prompts
 *   are there too; a rebuild or an import notes the prompts of the tasks it adds; the migration
 *   fills it from the tasks already there. Removing tasks or deleting images leaves it: the user
 *   forgets a prompt in the picker (`prompts:*`, `features/compose/prompt-history-picker.tsx`,
 *   Ctrl/Cmd+Shift+H). The form's Up/Down recall of the last 20 prompts stays the page's own
 *   (`store/compose-memory.ts`).
 * - The history worker (`history-port.ts`, `history-worker.ts`): a thread with its own store on
 *   the same file runs the heavy operations (`history-worker-ops.ts`: a triage write over many
 *   images and its Undo, an import's or a rebuild's writes, the trash's writes of one task
 *   (`user-writes.ts`: an image's files and state, a removal and its Undo), the Costs screen's
 *   sums) so main's loop does not wait on them; main learns of an import's and a rebuild's
 *   writes through the change feed, as of another process's, and of the triage's and the
 *   trash's from their replies (`triageInWorker`, `userWritesInWorker`: the feed skips their log
 *   entries). The core reads the Costs screen's sums and writes triage and the trash's changes
 *   there, for every front (the app, the CLI, `pictor mcp`). The core's open starts the worker
 *   and has it warm its store (`HistoryPort.warm`, `HistoryStore.warmTriage`: the newest tasks'
 *   triage rows read, a triage write's statements prepared) before it hands the core over, so the
 *   first rating after opening is as quick as the next. It also folds the write-ahead log into
 *   the file once writes pause (at least every 10 s while they go on): main's store folds it
 *   itself only past a bound (`HistoryPort.mainCheckpointPast`), so a put commits and returns.
 */
export type { CapMatch, CostTables } from './cost-tables';
export { HistoryError } from './history-error';
export type { HistoryQuery, ImageQuery } from './history-query';
export { HistoryPort, type HistoryPortOptions } from './history-port';
export { libraryReadsIn, type LibraryReads } from './library-reads';
export {
  type ManyRecordWrites,
  triageInWorker,
  type TriageWrites,
  userWritesInWorker,
  type WritingHistory,
  writingInWorker,
} from './history-writes';
export type { TriageEdit, TriageWritten } from './history-worker-protocol';
export { HISTORY_FILE, HistoryStore, type HistoryStoreOptions } from './history-store';
export type { BoardRow, HistoryTriage } from './history-triage';
export type { IdPrefixes } from './id-prefixes';
export type { LedgerCursor, LedgerListEntry, LedgerPage } from './ledger-pages';
export type { DaySum, ServiceSum } from './ledger-sums';
export type { PromptHistory } from './prompt-history';
export type { SmartBoardRow } from './smart-board-rows';
export type { TemplateRow, TemplateRows, TemplateWrite, WordListRow } from './template-rows';
export type { RatingTest, TriageQuery } from './triage-filter';
export {
  addDropped,
  droppedSentences,
  limitSentences,
  NOTHING_DROPPED,
  type TriageDropped,
} from './triage-limits';
export type { WholeImageQuery } from './whole-set';
