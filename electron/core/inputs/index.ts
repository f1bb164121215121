/**
 * The inputs module's face (electron/core/inputs/): its doors are the exports below, the only names
 * other modules and the fronts import from it. Input images: `InputStore` (files by digest in the
 * gallery's `inputs/`), the route a task's inputs take to a model, the uploads made at send time.
 */
export { chooseRoute, type RouteChoice } from './input-route';
export { boundedInputs, type InputQuotaLimits } from './input-quota';
export { INPUTS_DIR, InputStore, InputStoreError, describeInput } from './input-store';
export { InputSender, type InputSettings } from './send-inputs';
export { UploadMemory } from './upload-memory';
