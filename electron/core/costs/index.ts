/**
 * The costs module (electron/core/costs/), its face: the one file other modules and the fronts
 * import from it. Prices, caps, the ledger and what may loosen a cap.
 */
export type { CapForecast, CapVerdict } from './cap-check';
export type { CapStanding } from './cap-spend';
export { CostBook, type CostLedgerRead } from './cost-book';
export { csvHeader, csvRow } from './ledger-csv';
export { hostTimeZone, isTimeZone, parseLocalDate } from './local-periods';
export type { PricedEntry } from './todays-prices';
