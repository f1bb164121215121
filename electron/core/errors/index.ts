/**
 * The errors module's face (electron/core/errors/): its doors are the exports below, the only names
 * other modules and the fronts import from it. The errors the user reads as sentences
 * (`UserFacingError`, `SpendingCapError`), and what a thrown value says.
 */
export { SpendingCapError } from './spending-cap-error';
export { codeOrMessage, describeThrown, messageOf, systemErrorCode } from './thrown-value';
export { UserFacingError, type UserFacingErrorOptions } from './user-facing-error';
