/**
 * The base module's face (electron/core/base/): its doors are the exports below, the only names
 * other modules and the fronts import from it. Generic building blocks: `OperationRunner`, the
 * process timers, work limits, the core's closing gate.
 */
export { ClosingGate } from './closing-gate';
export { csvCell, csvLine, readCsvCell } from './csv-cell';
export { capYoungGeneration, releaseHeapPages } from './heap-pages';
export { type Operation, OperationRunner, type RunOptions } from './operation-runner';
export { nextTurn, processTimers } from './process-timers';
export { encodeBody } from './request-body';
export { inTurn, limiter, type Limiter, sharedLimiter } from './work-limit';
