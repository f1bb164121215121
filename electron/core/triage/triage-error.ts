/**
 * A triage change refused before anything is written: a rating out of range, a tag or board name
 * the rules do not allow, a board that does not exist, a limit reached. The sentence says which.
 */
import type { Sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors';

export class TriageError extends UserFacingError {
  override readonly name = 'TriageError';
  constructor(message: Sentence, code: 'bad_input' | 'not_found' = 'bad_input') {
    super(message, { code });
  }
}
