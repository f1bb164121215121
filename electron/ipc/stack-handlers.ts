/**
 * IPC handler of `images:stack` (shared/ipc/inputs-contract.ts). Placeholder until the stack of a
 * library image is built: it refuses with a sentence.
 */
import { sentence } from '../../shared/i18n/sentence';
import { UserFacingError } from '../core/errors/user-facing-error';
import type { HandlersOf } from './ipc-main-bridge';

export function stackHandlers(): HandlersOf<'images'> {
  return {
    'images:stack': () => {
      throw new UserFacingError(sentence('error.unexpected'), { code: 'failed' });
    },
  };
}
