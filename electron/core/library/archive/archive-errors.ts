/**
 * How an export or import ends other than as planned: an archive or a folder refused as a whole
 * (a sentence, and the entry it is about), a cancellation, the library's disk refusing a write,
 * the export's own file that could not be written.
 */
import { englishText, sentence, type Sentence } from '../../../../shared/i18n/sentence';
import { describeThrown, systemErrorCode, UserFacingError } from '../../errors';
import { ChosenFileNotSavedError, diskParams } from '../../fs';

export class ArchiveRefusedError extends UserFacingError {
  override readonly name: string = 'ArchiveRefusedError';
  /** The entry the refusal is about, as the archive names it; absent: the archive as a whole. */
  readonly entry: string | undefined;

  /**
   * `said`: one of the `error.library.archive…`, `folder…`, `manifest…` or `source…` sentences,
   * each a whole sentence naming what was refused and that nothing was written.
   */
  constructor(said: Sentence, entry?: string) {
    super(said, {
      code: 'bad_input',
      ...(entry === undefined ? {} : { detail: `Entry: ${entry}` }),
    });
    this.entry = entry;
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

/** The codes of a library disk that cannot take a write: full, over quota, read-only, not allowed. */
const DISK_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM']);

/**
 * The library's disk refused a write while an import copied into it: the import stopped there,
 * its unfinished task taken back, the tasks before it kept whole. Its sentence says why (full,
 * read-only…) and what to do; `cause` is the file system's error. The CLI's exit 5.
 */
export class LibraryDiskError extends UserFacingError {
  override readonly name: string = 'LibraryDiskError';

  constructor(cause: unknown) {
    super(sentence('error.library.importStoppedDisk', diskParams(cause)), {
      code: 'failed',
      detail: describeThrown(cause),
      cause,
    });
  }
}

/**
 * `error` as an import reports it: a file-system error of a library disk that cannot be written
 * becomes a {@link LibraryDiskError}; anything else (a cancellation, a sentence of its own) as it
 * is. Only for errors of writes into the library: a source's unreadable files are refusals.
 */
export function asLibraryDiskError(error: unknown): unknown {
  if (error instanceof UserFacingError) return error;
  const code = systemErrorCode(error);
  return code !== undefined && DISK_CODES.has(code) ? new LibraryDiskError(error) : error;
}

/**
 * The archive an export writes could not be created, written, synced or put in place (its folder
 * is gone, a file is where a folder should be, the disk is full, read-only or not writable…):
 * nothing was exported there, the target is untouched. Its sentence names the file, says why and
 * what to do; `cause` is the file system's error. The CLI's exit 5.
 */
export class ArchiveNotWrittenError extends ChosenFileNotSavedError {
  override readonly name: string = 'ArchiveNotWrittenError';

  constructor(file: string, cause: unknown) {
    super(file, cause, 'error.library.exportNotWritten');
  }
}
