/**
 * A change of the library's templates or word lists refused before anything is written: a name
 * taken, a body that does not parse, a version someone else moved on from, a limit reached. The
 * sentence says which.
 */
import type { Sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors';

export class TemplateStoreError extends UserFacingError {
  override readonly name = 'TemplateStoreError';
  constructor(message: Sentence, code: 'bad_input' | 'not_found' = 'bad_input') {
    super(message, { code });
  }
}
