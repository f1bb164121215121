/** Why an archive or a folder was refused as a whole: a sentence, and the entry it is about. */
import { englishText, type Sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors/user-facing-error';

export class ArchiveRefusedError extends UserFacingError {
  override readonly name: string = 'ArchiveRefusedError';

  /**
   * `said`: one of the `error.library.archive…`, `folder…`, `manifest…` or `source…` sentences,
   * each a whole sentence naming what was refused and that nothing was written.
   */
  constructor(said: Sentence, entry?: string) {
    super(said, {
      code: 'bad_input',
      ...(entry === undefined ? {} : { detail: `Entry: ${entry}` }),
    });
  }
}

/** One file an import or export left out, and why (a sentence). */
export interface Refusal {
  /** Relative to the archive, folder or gallery root. */
  readonly path: string;
  /** The reason in English (the CLI, the log). */
  readonly reason: string;
  /** The reason as a catalogue sentence: the window shows it in its language. */
  readonly reasonSentence?: Sentence;
}

/** `path` left out for the reason `said`. */
export function refusal(path: string, said: Sentence): Refusal {
  return { path, reason: englishText(said), reasonSentence: said };
}

/** An export or import stopped because the user cancelled it (its signal was aborted). */
export class OperationCancelledError extends Error {
  override readonly name: string = 'OperationCancelledError';

  constructor() {
    super('Stopped.');
  }
}

/** Whether `error` is a cancellation rather than a failure. */
export function isAbort(error: unknown): boolean {
  return error instanceof OperationCancelledError;
}

/** Every step of an export or import checks here, so a cancellation always has this one form. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new OperationCancelledError();
}
