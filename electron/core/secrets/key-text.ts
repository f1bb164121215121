/**
 * What a pasted key may look like. The refusals are sentences that never quote the key: they
 * reach the renderer and the log.
 */

import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { CONTROL_CHARACTERS, anyOf } from '../../../shared/text/control-characters';
import { UserFacingError } from '../errors';

/** Longest key accepted (the IPC contract's limit too). */
const MAX_KEY_LENGTH = 4_096;

/**
 * A key refused (`invalid_key`, sent as `bad_input`) or a vault write that failed (`not_saved`,
 * sent as `failed`). The message never contains the key.
 */
export class KeyVaultError extends UserFacingError {
  override readonly name = 'KeyVaultError';
  constructor(
    readonly reason: 'invalid_key' | 'not_saved',
    said: Sentence,
  ) {
    super(said, { code: reason === 'invalid_key' ? 'bad_input' : 'failed' });
  }
}

const WHITESPACE_OR_CONTROL = anyOf(['\\s', CONTROL_CHARACTERS]);
/** Bearer tokens are printable ASCII; anything else breaks the Authorization header. */
const PRINTABLE_ASCII = /^[\u0021-\u007e]+$/;

/** Why `text` (already trimmed) cannot be a key, or `null` when it can. */
export function keyTextProblem(text: string): Sentence | null {
  if (text.length === 0) return sentence('error.settings.keyEmpty');
  if (text.length > MAX_KEY_LENGTH) {
    return sentence('error.settings.keyTooLong', { max: MAX_KEY_LENGTH });
  }
  if (/^bearer\s/i.test(text)) return sentence('error.settings.keyBearer');
  if (WHITESPACE_OR_CONTROL.test(text)) return sentence('error.settings.keyWhitespace');
  if (!PRINTABLE_ASCII.test(text)) return sentence('error.settings.keyNotAscii');
  return null;
}

/**
 * The key to store: `raw` trimmed.
 * @throws KeyVaultError `invalid_key` with a sentence when it cannot be a key.
 */
export function checkKeyText(raw: string): string {
  const text = raw.trim();
  const problem = keyTextProblem(text);
  if (problem !== null) throw new KeyVaultError('invalid_key', problem);
  return text;
}

/** True when decrypted text could be a key we stored (not empty, not garbled). */
export function isPlausibleKey(text: string): boolean {
  return text === text.trim() && keyTextProblem(text) === null;
}
