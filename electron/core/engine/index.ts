/**
 * The engine module (electron/core/engine/), its face: the one file other modules and the fronts
 * import from it. Submit, poll, download: the task engine.
 */
export { followSubmits } from './account-refusal';
export { isBookkeepingOnly } from './bookkeeping-writes';
export { engineFiles } from './engine-files';
export {
  type EngineAdmission,
  type EngineBoards,
  EngineInputError,
  type TaskEngineOptions,
  type TaskUpdate,
} from './engine-types';
export { askToPassHardCaps, type HardCapConsent, sameCapIn } from './hard-cap-consent';
export { checkTarget } from './target-check';
export { TaskEngine } from './task-engine';
