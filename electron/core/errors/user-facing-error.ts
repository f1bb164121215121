/**
 * The one base class of the errors Pictor shows to people. Its message is a sentence that says
 * what happened and what to do; `detail` is the technical reason, one click away; `code` is the
 * IPC contract's error code the failure goes out with. Match it with `instanceof`, never by name:
 * a name string misses every subclass and survives a rename of the class it names.
 */
import type { IpcError } from '../../../shared/ipc/contract';
import { englishText, type Sentence } from '../../../shared/i18n/sentence';

/** Why a request failed, as the IPC contract spells it (`bad_input`, `failed`…). */
export type UserErrorCode = IpcError['code'];

export interface UserFacingErrorOptions {
  /** Default `failed`. */
  readonly code?: UserErrorCode;
  /** Technical detail for the "details" disclosure. Never a secret, never row content. */
  readonly detail?: string;
  readonly cause?: unknown;
}

export class UserFacingError extends Error {
  override readonly name: string = 'UserFacingError';
  readonly code: UserErrorCode;
  readonly detail: string | undefined;
  /**
   * The message as a catalogue sentence, shown in the window's language (the `message` is its
   * English text). Absent only for a message that came from elsewhere as text (an IPC error
   * without one, the demo service's own words).
   */
  readonly sentence: Sentence | undefined;

  constructor(message: string | Sentence, options: UserFacingErrorOptions = {}) {
    super(
      typeof message === 'string' ? message : englishText(message),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = options.code ?? 'failed';
    this.detail = options.detail;
    this.sentence = typeof message === 'string' ? undefined : message;
  }
}
