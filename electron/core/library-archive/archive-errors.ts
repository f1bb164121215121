/** Why an archive or a folder was refused as a whole: a sentence, and the entry it is about. */
import { UserFacingError } from '../errors/user-facing-error';

export class ArchiveRefusedError extends UserFacingError {
  override readonly name: string = 'ArchiveRefusedError';

  /** `what`: "this archive" (default), "this folder", … as the sentence should name it. */
  constructor(reason: string, entry?: string, what = 'this archive') {
    super(`Pictor did not import ${what}: ${reason} Nothing was written to the library.`, {
      code: 'bad_input',
      ...(entry === undefined ? {} : { detail: `Entry: ${entry}` }),
    });
  }
}

/** One file an import or export left out, and why (a sentence). */
export interface Refusal {
  /** Relative to the archive, folder or gallery root. */
  readonly path: string;
  readonly reason: string;
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
