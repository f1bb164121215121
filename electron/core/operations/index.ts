/**
 * The operations module (electron/core/operations/), its face: the one file other modules and the
 * fronts import from it. The long operations, one at a time per kind.
 */
export { CoreOperations } from './core-operations';
