/**
 * The edit module's face (electron/core/edit/): its doors are the exports below, the only names
 * other modules and the fronts import from it. Images as inputs on 1 to 6 targets, a use of the
 * fan-out (core/fan-out) as a compare is: `planEdit` (every input looked up in the input store by
 * digest, each target left out with a sentence when its model cannot do the edit (naming those
 * that can), its inputs cannot reach it, or it has no key; its route (inline, upload, public links
 * and consent) and the safety tolerance clamped said; priced and capped as a compare), `runEdit`
 * (planned again, public links without consent left out, every task stored under one group, then
 * sent), and the inputs the page hands main (`edit-inputs.ts`: a file from main's own dialog, a
 * library image, a mask, a smaller copy).
 */
export { EditInputs, editInputsOf } from './edit-inputs';
export { type EditDeps, EditInputError, type EditPlan, planEdit } from './edit-plan';
export { runEdit } from './edit-run';
