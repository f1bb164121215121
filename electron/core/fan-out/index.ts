/**
 * The fan-out module's face (electron/core/fan-out/): its doors are the exports below, the only
 * names other modules and the fronts import from it. One request (or a few) sent to several
 * targets at once, the shape a compare (core/compare) and an edit (core/edit) share and any later
 * operation of that kind takes: `planFanOut` (each target labelled, kept by its use or left out
 * with a sentence, the whole priced and checked against the caps and the engine's limit; nothing
 * stored or sent), `sendPlan` (every task stored under one group id, all or none, then sent side
 * by side), `groupTasks` and `cancelGroup` (a group shown again, "Cancel all"), and what each use
 * needs of a target (`usableTarget`, `modelOf`, `adaptRequest`).
 */
export { adaptRequest } from './fan-out-adapt';
export {
  type FanOutDeps,
  type FanOutPlan,
  type LeftOutTarget,
  planFanOut,
  type PlannedTarget,
} from './fan-out-plan';
export { cancelGroup, groupTasks, sendPlan } from './fan-out-run';
export { modelOf, usableTarget } from './fan-out-targets';
export type { CostSum } from './fan-out-totals';
