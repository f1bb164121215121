/**
 * The compare module's face (electron/core/compare/): its doors are the exports below, the only
 * names other modules and the fronts import from it. One prompt (or up to 10) on 2 to 6 targets at
 * once, a use of the fan-out (core/fan-out): `planCompare` (each target usable or left out with a
 * sentence, its parameters adapted to its service, labelled #1/#2 when repeated, priced, the caps
 * checked; nothing stored or sent), `runCompare` (every task stored under one group id, all or
 * none, then sent side by side), `compareTasks` and `cancelCompare` (the group shown again,
 * "Cancel all").
 */
export {
  CompareInputError,
  type CompareInput,
  type ComparePlan,
  type CompareTargetInput,
  planCompare,
} from './compare-plan';
export { cancelCompare, compareTasks, runCompare } from './compare-run';
