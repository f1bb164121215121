/**
 * The costs module's face (electron/core/costs/): its doors are the exports below, the only names
 * other modules and the fronts import from it. Prices, caps, the ledger and what may loosen a cap.
 *
 * - Cost ledger: tables of the same database (docs/COSTS.md "The ledger"). What the window shows of
 *   it is pushed and paged, never re-read on task updates: SQLite triggers keep its sums per block
 *   of quarter hours and a version that moves with every change the window shows, whichever process
 *   writes; `CostBook.onDidChange` (core/costs/ledger-feed.ts, one `Emitter`) compares the version
 *   four times a second and the wiring sends `costs:changed` with it; the Costs screen then reads
 *   its totals (SQL aggregates over the blocks of its period's local days) and a page of tasks
 *   (keyset), each read bounded by what it shows (the "Costs ledger" row of docs/PERFORMANCE.md).
 */
export type { CapForecast, CapVerdict } from './cap-check';
export type { CapStanding } from './cap-spend';
export { CostBook, type CostLedgerRead } from './cost-book';
export { csvHeader, csvRow } from './ledger-csv';
export { hostTimeZone, isTimeZone, parseLocalDate } from './local-periods';
export type { PricedEntry } from './todays-prices';
