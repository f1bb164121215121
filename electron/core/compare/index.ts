/**
 * The compare module's face (electron/core/compare/): its doors are the exports below, the only
 * names other modules and the fronts import from it. One prompt (or up to 10) on 2 to 6 targets at
 * once: `planCompare` (each target usable or left out with a sentence, its parameters adapted to
 * its service, labelled #1/#2 when repeated, priced, the caps checked; nothing stored or sent),
 * `runCompare` (every task stored under one group id, all or none, then sent side by side),
 * `cancelCompare`.
 */
export { adaptRequest } from './compare-adapt';
export {
  type CompareDeps,
  CompareInputError,
  type ComparePlan,
  type CompareTargetInput,
  labelsOf,
  type LeftOutTarget,
  planCompare,
  type PlannedTarget,
  usableTarget,
  verdictOf,
} from './compare-plan';
export { cancelCompare, compareTasks, runCompare } from './compare-run';
export type { CostSum } from './compare-totals';
