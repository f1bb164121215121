/**
 * IPC handlers of images as inputs (shared/ipc/inputs-contract.ts). Placeholder while the input
 * store and the edit plan are built: every channel refuses with a sentence. The stack's handler
 * is stack-handlers.ts.
 */
import { sentence } from '../../shared/i18n/sentence';
import { UserFacingError } from '../core/errors/user-facing-error';
import type { HandlersOf } from './ipc-main-bridge';

const refuse = (): never => {
  throw new UserFacingError(sentence('error.unexpected'), { code: 'failed' });
};

export function inputHandlers(): HandlersOf<'inputs'> & HandlersOf<'edit'> {
  return {
    'inputs:pickFile': refuse,
    'inputs:fromLibrary': refuse,
    'inputs:putMask': refuse,
    'inputs:downscale': refuse,
    'inputs:address': refuse,
    'inputs:consent': refuse,
    'edit:plan': refuse,
    'edit:run': refuse,
  };
}
