/**
 * The history module (electron/core/history/), its face: the one file other modules and the fronts
 * import from it. The SQLite history of tasks, its queries and the ledger's rows.
 */
export type { CapMatch, CostTables } from './cost-tables';
export { HistoryError } from './history-error';
export type { HistoryQuery, ImageQuery } from './history-query';
export { HistoryStore, type HistoryStoreOptions } from './history-store';
export type { BoardRow, HistoryTriage } from './history-triage';
export type { IdPrefixes } from './id-prefixes';
export type { LedgerCursor, LedgerListEntry, LedgerPage } from './ledger-pages';
export type { DaySum, ServiceSum } from './ledger-sums';
export type { PromptHistory } from './prompt-history';
export type { SmartBoardRow } from './smart-board-rows';
export type { TemplateRow, TemplateRows, TemplateWrite, WordListRow } from './template-rows';
export type { RatingTest, TriageQuery } from './triage-filter';
export { addDropped, limitSentences, NOTHING_DROPPED, type TriageDropped } from './triage-limits';
export type { WholeImageQuery } from './whole-set';
