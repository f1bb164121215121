/**
 * A submit a hard spending cap stopped (or one Pictor could not price while a hard cap applies):
 * nothing was stored or sent. Its sentence names the cap and what was spent; the CLI exits 6.
 */
import { UserFacingError } from './user-facing-error';

export class SpendingCapError extends UserFacingError {
  override readonly name = 'SpendingCapError';
}
