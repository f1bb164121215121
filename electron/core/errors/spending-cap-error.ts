/**
 * A submit a hard spending cap stopped (or one Pictor could not price while a hard cap applies):
 * nothing was stored or sent. Its sentence names the cap and what was spent; `refusal` carries
 * the cap's word as data (what its period spent, what the submit adds, the prices it lacks), so
 * each front says it in its own words: the CLI naming its commands (exit 6), the window linking
 * to the price's field.
 */
import type { Sentence } from '../../../shared/i18n/sentence';
import type { CapWord } from '../../../shared/ipc/cost-contract';
import { UserFacingError, type UserFacingErrorOptions } from './user-facing-error';

export class SpendingCapError extends UserFacingError {
  override readonly name = 'SpendingCapError';
  /** The refusing cap's word as data; absent only where none was kept. */
  readonly refusal: CapWord | undefined;

  constructor(
    message: string | Sentence,
    options: UserFacingErrorOptions & { readonly refusal?: CapWord } = {},
  ) {
    super(message, options);
    this.refusal = options.refusal;
  }
}
